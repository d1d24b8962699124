import AuthCrypto
import CognitoAuth

/// Client-side SRP from the challenge to the signature (the password claim: two 3072-bit modular exponentiations,
/// hashes, HKDF, HMAC; A was computed before the challenge arrived) against pycognito's AWSSRP.process_challenge
/// on the same inputs, in the same run.
enum SRPBenchmark {
    static let poolId = "us-east-1_BenchPool1"
    static let userId = "bench-user"
    static let password = "Correct-Horse-9"
    static let privateHex = String(repeating: "a5", count: 32)
    static let saltHex = String(repeating: "3c", count: 16)
    static let secretBlock = String(repeating: "QUJD", count: 400)

    static func run() throws -> Row {
        // B = g^b mod N for a fixed b, computed once.
        let serverPublic = BigUInt(2).power(
            BigUInt(bigEndian: Array(repeating: UInt8(0xbb), count: 32)),
            modulus: BigUInt(hex: rfc5054Prime3072)!
        ).hex
        let passwordBytes = SecretBytes(utf8: password)
        let srp = try CognitoSRP(userPoolId: poolId, privateValue: BigUInt(hex: privateHex)!)
        let ours = try measure(rounds: 100) {
            keepAlive(
                try srp.passwordClaim(
                    userIdForSRP: userId, password: passwordBytes, saltHex: saltHex,
                    serverPublicValueHex: serverPublic, secretBlock: secretBlock,
                    unixTime: 1_796_240_167))
        }
        let script = """
            import time, statistics
            from pycognito import aws_srp
            class Fixed(aws_srp.AWSSRP):
                def generate_random_small_a(self): return int('\(privateHex)', 16)
            samples = []
            srp = Fixed(username='\(userId)', password='\(password)', pool_id='\(poolId)', client_id='c', client=object())
            parameters = srp.get_auth_params()
            for i in range(23):
                t = time.monotonic()
                srp.process_challenge({'USER_ID_FOR_SRP': '\(userId)', 'SALT': '\(saltHex)', 'SRP_B': '\(serverPublic)',
                                       'SECRET_BLOCK': '\(secretBlock)'}, parameters)
                if i >= 3: samples.append(time.monotonic() - t)
            print(statistics.median(samples))
            """
        guard let peer = Double(try spawnAndCapture(["python3", "-c", script]).filter { !$0.isWhitespace }) else {
            throw SpawnError.failed("pycognito peer (pip install pycognito)", -1)
        }
        return Row(
            name: "SRP: challenge to signature", ours: formatSpread(ours), peer: "pycognito " + formatDuration(peer),
            ratio: ratio(ours.median, over: peer))
    }
}
