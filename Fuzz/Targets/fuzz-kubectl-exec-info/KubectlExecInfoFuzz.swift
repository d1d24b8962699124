import FuzzCLISupport
import FuzzSupport

/// The kubectl credential plugin's input: the `KUBERNETES_EXEC_INFO` document (apiVersion, interactive, the
/// cluster's server matched against the profiles).
@main enum KubectlExecInfoFuzz: FuzzTarget {
    static func test(_ input: [UInt8]) {
        HelperInvocation.run(
            ["kubectl-credential"], environment: ["KUBERNETES_EXEC_INFO": String(decoding: input, as: UTF8.self)])
    }
}
