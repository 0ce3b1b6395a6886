"""The HTML report of the README's sample year (Tests/StreakCommandTests/Golden/report*.html,
written by scripts/generate-pictures.sh and checked against a real streakd by
CLIPictureGoldenTests) in a real browser: axe-core finds no WCAG 2.2 AA violation, the page
looks like its golden screenshot, and every day's title is the server's accessibility label."""

import io
import json
import pathlib
import tempfile

import pytest
from axe_selenium_python import Axe
from PIL import Image, ImageChops

from conftest import GOLDEN, WINDOW

HERE = pathlib.Path(__file__).resolve().parent
PAGES = ["report.html", "report-dark.html", "report-colorblind.html"]
WCAG_22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
# A pixel differs when a channel is off by more than this; the page may differ in this share of pixels.
CHANNEL_TOLERANCE = 24
PIXEL_RATIO_TOLERANCE = 0.005


def load(driver, name):
    driver.get((GOLDEN / name).as_uri())
    assert driver.execute_script("return document.readyState") == "complete"


@pytest.mark.parametrize("page", PAGES)
def test_axe_finds_no_wcag_22_aa_violation(driver, page):
    load(driver, page)
    axe = Axe(driver)
    axe.inject()
    version = driver.execute_script("return axe.version")
    major, minor = (int(part) for part in version.split(".")[:2])
    assert (major, minor) >= (4, 5), f"axe-core {version} does not know WCAG 2.2's rules"
    results = axe.run(options=json.dumps({"runOnly": {"type": "tag", "values": WCAG_22_AA}}))
    assert results["passes"], "axe ran no rule at all"
    passed = {rule["id"] for rule in results["passes"]}
    # The rules this page is about did run (and passed).
    assert {"color-contrast", "html-has-lang", "svg-img-alt", "document-title"} <= passed, passed
    assert results["violations"] == [], axe.report(results["violations"])


@pytest.mark.parametrize("page", PAGES)
def test_looks_like_the_golden_screenshot(driver, page, update_golden):
    load(driver, page)
    driver.set_window_size(*WINDOW)
    actual = Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")
    golden = HERE / "golden" / (pathlib.Path(page).stem + ".png")
    if update_golden or not golden.exists():
        actual.save(golden, optimize=True)
        if not update_golden:
            pytest.fail(f"no golden screenshot {golden}: written now, review and commit it")
        return
    expected = Image.open(golden).convert("RGB")
    assert actual.size == expected.size, f"{actual.size} != {expected.size}"
    difference = ImageChops.difference(actual, expected)
    mask = difference.point(lambda value: 255 if value > CHANNEL_TOLERANCE else 0).convert("L")
    mask = mask.point(lambda value: 255 if value else 0)
    changed = mask.histogram()[255]
    ratio = changed / (actual.size[0] * actual.size[1])
    if ratio > PIXEL_RATIO_TOLERANCE:
        keep = pathlib.Path(tempfile.mkdtemp(prefix="streak-browser-"))
        actual.save(keep / "actual.png")
        mask.save(keep / "difference.png")
        pytest.fail(f"{page}: {ratio:.2%} of the pixels differ from {golden.name} (see {keep})")


def server_labels():
    """Every present day's accessibility label, as `streak --json heatmap --labels` printed it."""
    heatmap = json.loads((GOLDEN / "heatmap-labels.json").read_text(encoding="utf-8"))
    labels = {}
    for week in heatmap["weeks"]:
        for cell in week["cells"]:
            if cell is not None:
                labels[cell["date"]] = cell["accessibility_label"]
    return labels


def test_every_day_is_titled_with_the_servers_label(driver):
    load(driver, "report.html")
    titles = driver.execute_script(
        """
        const titles = {};
        for (const rect of document.querySelectorAll('svg rect[data-date]')) {
            const title = rect.querySelector(':scope > title');
            titles[rect.getAttribute('data-date')] = title ? title.textContent : null;
        }
        return titles;
        """
    )
    labels = server_labels()
    assert len(labels) == 350  # 2024-07-01 ... 2025-06-15
    assert set(titles) == set(labels)
    wrong = {day: (titles[day], labels[day]) for day in labels if titles[day] != labels[day]}
    assert wrong == {}
    assert titles["2025-06-15"] == "June 15: 20% completed, 1 of 5 habits"
