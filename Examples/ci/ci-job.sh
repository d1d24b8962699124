#!/bin/sh
# A CI job's step that calls an API as the job's own app client: machine sign-in, the OAuth client-credentials
# grant. No person signs in and nothing prompts.
#
# From the CI system, as masked secret variables:
#   CI_CLIENT_SECRET             the app client's secret
#   AUTHVAULT_VAULT_PASSPHRASE   the passphrase of the encrypted file vault that caches the token
# and as plain variables:
#   CI_USER_POOL_ID, CI_CLIENT_ID, CI_HOSTED_UI (the user pool's domain), CI_SCOPES (the resource server's scopes),
#   API_URL (what the job calls); AUTHVAULT (the binary; default: authvault on PATH).
set -eu
AUTHVAULT=${AUTHVAULT:-authvault}
export AUTHVAULT_PROFILE=ci AUTHVAULT_NON_INTERACTIVE=1

# The secret goes to the vault through standard input, never as an argument (every user can read those with ps).
printf '%s\n' "$CI_CLIENT_SECRET" | "$AUTHVAULT" configure --user-pool-id "$CI_USER_POOL_ID" --client-id "$CI_CLIENT_ID" \
    --hosted-ui "$CI_HOSTED_UI" --grant client-credentials --scopes "$CI_SCOPES" --client-secret-stdin --vault file

# No login: the first call fetches a token; later calls (and other steps) reuse it until it nears expiry. Read
# first, so that a refusal fails the step with authvault's exit status and message; the header stays unexported.
header=$("$AUTHVAULT" token --format header)
printf '%s\n' "$header" | curl -fsS -H @- "$API_URL"
echo
"$AUTHVAULT" status
