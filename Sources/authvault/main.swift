import AuthVaultCLI

#if canImport(Glibc)
    import Glibc
#endif

exit(await AuthVault.main())
