"""Headless Chromium from Debian's packages, driven by Selenium through Debian's chromedriver."""

import os
import pathlib

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = pathlib.Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "Tests" / "StreakCommandTests" / "Golden"
WINDOW = (1280, 1000)


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true", help="rewrite the golden screenshots")


@pytest.fixture(scope="session")
def update_golden(request):
    return request.config.getoption("--update-golden") or os.environ.get("UPDATE_GOLDEN") == "1"


@pytest.fixture(scope="session")
def driver():
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
    for argument in (
        "--headless=new",
        "--no-sandbox",  # as root (CI), Chromium refuses its sandbox
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
        "--force-color-profile=srgb",
        "--font-render-hinting=none",
        "--disable-lcd-text",
        "--disable-extensions",
        "--no-first-run",
        f"--window-size={WINDOW[0]},{WINDOW[1]}",
    ):
        options.add_argument(argument)
    service = Service(executable_path=os.environ.get("CHROMEDRIVER_BIN", "/usr/bin/chromedriver"))
    browser = webdriver.Chrome(service=service, options=options)
    browser.set_window_size(*WINDOW)
    yield browser
    browser.quit()
