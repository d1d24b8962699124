import Testing

@testable import CognitoAuth

@Suite struct CognitoOperationTests {
    @Test func targetHeaderNamesTheService() {
        #expect(CognitoOperation.initiateAuth.target == "AWSCognitoIdentityProviderService.InitiateAuth")
        #expect(
            CognitoOperation.getTokensFromRefreshToken.target
                == "AWSCognitoIdentityProviderService.GetTokensFromRefreshToken")
    }
}
