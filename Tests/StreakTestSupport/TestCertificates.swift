import Foundation

/// A throwaway certificate authority and server certificates for TLS tests, made with the
/// `openssl` command (Debian's `openssl` package) in a fresh temporary directory.
///
/// Every certificate uses a P-256 key. `server` is valid for 30 days for `localhost` and
/// 127.0.0.1; the others each break one rule: `expired` (its validity ended yesterday: made
/// with `openssl x509 -req -days -1`, which OpenSSL 3.0 takes as "end one day before now"),
/// `wrongHost` (for `wrong.example` only), `unknownAuthority` (signed by another CA that no
/// client trusts) and `reissued` (a second valid certificate for the same names, from the
/// second CA, which tests swap in on SIGHUP).
public final class TestCertificates: Sendable {
    /// A certificate file and its key file.
    public struct Pair: Sendable {
        /// PEM certificate.
        public let certificate: String
        /// PEM private key.
        public let key: String
    }

    /// The folder that holds every file (removed by `remove()`).
    public let directory: URL
    /// The test CA's certificate: the file clients trust (`--ca-file`).
    public let caFile: String
    /// The second CA's certificate (it signed `unknownAuthority` and `reissued`).
    public let otherCAFile: String
    /// Valid now, for localhost and 127.0.0.1, signed by the test CA.
    public let server: Pair
    /// Its validity ended a day ago.
    public let expired: Pair
    /// Valid, but for wrong.example only.
    public let wrongHost: Pair
    /// Valid, for localhost and 127.0.0.1, but signed by the second CA.
    public let unknownAuthority: Pair
    /// Valid, for localhost and 127.0.0.1, signed by the second CA (a reload's new pair).
    public let reissued: Pair

    /// Makes the CAs and certificates. - Throws: `TestSupportError` with openssl's output when a step fails.
    public init() throws {
        directory = ServerProcess.temporaryDirectory(prefix: "streakd-tls")
        let files = CertificateFiles(directory: directory)
        try files.writeConfiguration()
        caFile = try files.makeAuthority("ca", commonName: "Streakd Test CA")
        otherCAFile = try files.makeAuthority("other-ca", commonName: "Streakd Other CA")
        let names = "DNS:localhost,IP:127.0.0.1"
        server = try files.issue("server", commonName: "localhost", names: names, days: 30, by: "ca")
        expired = try files.issue("expired", commonName: "localhost", names: names, days: -1, by: "ca")
        wrongHost = try files.issue(
            "wrong-host",
            commonName: "wrong.example",
            names: "DNS:wrong.example",
            days: 30,
            by: "ca"
        )
        unknownAuthority = try files.issue(
            "unknown-ca",
            commonName: "localhost",
            names: names,
            days: 30,
            by: "other-ca"
        )
        reissued = try files.issue("reissued", commonName: "localhost", names: names, days: 30, by: "other-ca")
    }

    /// Removes the folder.
    public func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Copies `pair` into `directory` as tls-cert.pem and tls-key.pem (the files a test may
    /// replace before a SIGHUP). - Returns: streakd's flags for them, and the two paths.
    public static func serverFlags(
        _ pair: Pair,
        in directory: URL
    ) throws -> (arguments: [String], certificate: String, key: String) {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let certificate = directory.appendingPathComponent("tls-cert.pem").path
        let key = directory.appendingPathComponent("tls-key.pem").path
        try install(pair, certificate: certificate, key: key)
        return (["--tls-cert", certificate, "--tls-key", key], certificate, key)
    }

    /// Copies `pair` to `certificate` and `key` (paths a server was started with), replacing them;
    /// the key readable by its owner only, as a server's should be.
    public static func install(_ pair: Pair, certificate: String, key: String) throws {
        for (source, destination) in [(pair.certificate, certificate), (pair.key, key)] {
            let data = try Data(contentsOf: URL(fileURLWithPath: source))
            try data.write(to: URL(fileURLWithPath: destination), options: .atomic)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key)
    }

    /// Runs `openssl ARGUMENTS` in `directory`. - Returns: standard output and error together.
    @discardableResult
    public static func openssl(_ arguments: [String], in directory: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["OPENSSL_CONF"] = directory.appendingPathComponent("openssl.cnf").path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw TestSupportError(
                "openssl \(arguments.joined(separator: " ")) failed (\(process.terminationStatus)): \(text)"
            )
        }
        return text
    }
}

/// The openssl steps behind `TestCertificates`.
private struct CertificateFiles {
    let directory: URL

    init(directory: URL) {
        self.directory = directory
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// A configuration of our own, so that the machine's openssl.cnf does not change the result.
    func writeConfiguration() throws {
        let text = """
            [req]
            distinguished_name = dn
            prompt = no
            [dn]
            CN = unused
            [authority]
            basicConstraints = critical,CA:TRUE
            keyUsage = critical,keyCertSign,cRLSign
            subjectKeyIdentifier = hash

            """
        try text.write(toFile: path("openssl.cnf"), atomically: true, encoding: .utf8)
    }

    func makeKey(_ name: String) throws -> String {
        let key = path("\(name).key")
        try run(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key])
        return key
    }

    /// A self-signed CA valid for 30 days. - Returns: its certificate file.
    func makeAuthority(_ name: String, commonName: String) throws -> String {
        let key = try makeKey(name)
        let certificate = path("\(name).crt")
        try run([
            "req", "-x509", "-new", "-key", key, "-subj", "/CN=\(commonName)", "-days", "30",
            "-extensions", "authority", "-out", certificate,
        ])
        return certificate
    }

    /// A server certificate for `names` (subjectAltName syntax) signed by CA `authority`.
    func issue(
        _ name: String,
        commonName: String,
        names: String,
        days: Int,
        by authority: String
    ) throws -> TestCertificates.Pair {
        let key = try makeKey(name)
        let request = path("\(name).csr")
        try run(["req", "-new", "-key", key, "-subj", "/CN=\(commonName)", "-out", request])
        let extensions = path("\(name).ext")
        try """
        basicConstraints = CA:FALSE
        keyUsage = critical,digitalSignature,keyEncipherment
        extendedKeyUsage = serverAuth
        subjectAltName = \(names)

        """.write(toFile: extensions, atomically: true, encoding: .utf8)
        let certificate = path("\(name).crt")
        try run([
            "x509", "-req", "-in", request, "-CA", path("\(authority).crt"), "-CAkey", path("\(authority).key"),
            "-set_serial", String(Int.random(in: 1000...999_999_999)), "-days", String(days),
            "-extfile", extensions, "-out", certificate,
        ])
        return TestCertificates.Pair(certificate: certificate, key: key)
    }

    private func run(_ arguments: [String]) throws {
        try TestCertificates.openssl(arguments, in: directory)
    }
}

extension ServerProcess {
    /// A streakd serving TLS with the pair's certificate and key (`--tls-cert`, `--tls-key`).
    public static func startTLS(_ pair: TestCertificates.Pair) throws -> ServerProcess {
        try start(extraArguments: ["--tls-cert", pair.certificate, "--tls-key", pair.key])
    }
}
