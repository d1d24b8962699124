#!/usr/bin/env bash
# `make demo`: AuthVault's main job end to end on the embedded default — a local Cognito emulator (moto) and the
# encrypted-file vault — in a throw-away home directory, leaving nothing running and nothing behind.
#   Scripts/demo.sh PATH-TO-RELEASE-AUTHVAULT
set -euo pipefail
cd "$(dirname "$0")/.."
authvault=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
Scripts/check-runpath.sh "$authvault"
scripts=$PWD/Tests/TestSupport/Scripts
python=$PWD/.venv/bin/python3 # the project's virtual environment (Scripts/install-deps.sh)

demo=$(mktemp -d /tmp/authvault-demo.XXXXXX)
chmod 700 "$demo"
pids=()
cleanup() {
    local status=$?
    # SIGKILL: a parent (a test runner) may have left SIGTERM blocked in the processes it starts. Each is waited for
    # here, with bash's own notices off the screen: "Killed" would only say what this clean-up just did.
    {
        for pid in "${pids[@]}"; do
            kill -KILL "$pid" || true
            wait "$pid" || true
        done
    } 2>/dev/null
    rm -rf "$demo"
    [ $status -eq 0 ] || echo "The demo failed (exit status $status); nothing is left running." >&2
}
trap cleanup EXIT

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
show() { printf '$ %s\n' "$*"; "$@"; }

# A private home: the demo never touches the user's own profiles, vault or keyring.
export HOME=$demo/home XDG_CONFIG_HOME=$demo/config XDG_DATA_HOME=$demo/data XDG_RUNTIME_DIR=$demo/run
mkdir -p "$HOME" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
unset DBUS_SESSION_BUS_ADDRESS AUTHVAULT_PROFILE AUTHVAULT_CONFIG AUTHVAULT_AGENT_SOCKET
# The file vault's passphrase, generated for this run; a real user types it once per session, or keeps it elsewhere.
AUTHVAULT_VAULT_PASSPHRASE=$(openssl rand -base64 24)
export AUTHVAULT_VAULT_PASSPHRASE AUTHVAULT_KEY_CACHE_TIMEOUT=0
# The emulator's Python libraries warn about their own dependencies (pyOpenSSL's DSA deprecation): nothing the demo
# shows is about them.
export PYTHONWARNINGS=ignore

# Starts a Python server that prints its port first and serves until its standard input closes (or it is killed);
# sets $port.
start_server() {
    local name=$1 fd; shift
    mkfifo "$demo/$name.in"
    "$python" "$@" < "$demo/$name.in" > "$demo/$name.port" 2> "$demo/$name.log" &
    pids+=($!)
    exec {fd}> "$demo/$name.in"
    for _ in $(seq 300); do [ -s "$demo/$name.port" ] && break; sleep 0.1; done
    [ -s "$demo/$name.port" ] || { echo "$name did not start:" >&2; cat "$demo/$name.log" >&2; return 1; }
    port=$(head -n1 "$demo/$name.port")
}

step "A local Cognito emulator (moto, plus the RevokeToken it lacks) on loopback, with a demo user pool and user"
start_server moto "$scripts/cognito_emulator.py"
moto=http://127.0.0.1:$port
read -r pool client < <("$python" - "$moto" <<'EOF'
import sys, boto3
cognito = boto3.client("cognito-idp", endpoint_url=sys.argv[1], region_name="us-east-1",
                       aws_access_key_id="demo", aws_secret_access_key="demo")
pool = cognito.create_user_pool(PoolName="authvault-demo")["UserPool"]["Id"]
client = cognito.create_user_pool_client(UserPoolId=pool, ClientName="authvault-demo",
    ExplicitAuthFlows=["ALLOW_USER_SRP_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"])["UserPoolClient"]["ClientId"]
cognito.admin_create_user(UserPoolId=pool, Username="demo", MessageAction="SUPPRESS",
    UserAttributes=[{"Name": "email", "Value": "demo@example.com"}, {"Name": "email_verified", "Value": "true"}])
cognito.admin_set_user_password(UserPoolId=pool, Username="demo", Password="Demo-Passw0rd!", Permanent=True)
print(pool, client)
EOF
)
echo "moto at $moto: pool $pool, app client $client, user 'demo'"

step "Configure a profile on the encrypted-file vault"
show "$authvault" configure --user-pool-id "$pool" --client-id "$client" --endpoint "$moto" \
    --jwks-url "$moto/$pool/.well-known/jwks.json" --vault file --helper-host git.example.com

step "Sign in headless with SRP (the password on standard input, never in argv)"
printf '%s\n' 'Demo-Passw0rd!' | show "$authvault" login --username demo --password-stdin

step "Status, whoami and a token"
show "$authvault" status
show "$authvault" whoami
token=$("$authvault" token)
echo "\$ $authvault token    # ${#token} characters; its claims:"
"$python" -c 'import base64, json, sys; p = sys.argv[1].split(".")[1]; c = json.loads(base64.urlsafe_b64decode(p + "=" * (-len(p) % 4))); print(json.dumps({k: c[k] for k in ("iss", "client_id", "username", "token_use", "exp") if k in c}, indent=1))' "$token"

step "A refresh (new tokens now; normally it happens by itself ahead of expiry)"
show "$authvault" refresh
[ "$("$authvault" token)" != "$token" ] && echo "The access token changed."

step "git's credential helper asks for git.example.com (the password is the token; shown redacted)"
printf 'protocol=https\nhost=git.example.com\n\n' | "$authvault" git-credential get | sed -E 's/^(password=).{12}.*/\1<token, redacted>/'

step "The token agent: one long-lived process serves tokens over a Unix socket"
"$authvault" agent 2> "$demo/agent.log" &
agent=$!
pids+=($agent)
for _ in $(seq 100); do [ -S "$XDG_RUNTIME_DIR/authvault/agent.sock" ] && break; sleep 0.05; done
ls -l "$XDG_RUNTIME_DIR/authvault/agent.sock"
start=$(date +%s%N)
for _ in $(seq 20); do "$authvault" token > /dev/null; done
echo "20 × 'authvault token' through the agent: $(( ($(date +%s%N) - start) / 20000000 )) ms each, wall clock"
kill -TERM "$agent" && wait "$agent" && echo "The agent stopped on SIGTERM and removed its socket."

if command -v chromium > /dev/null && "$python" -c 'import playwright, django, oauth2_provider' 2> /dev/null; then
    step "Browser sign-in: headless Chromium at a Hosted UI stand-in (django-oauth-toolkit), with PKCE"
    cat > "$demo/oauth.json" <<EOF
{"users": [{"username": "Google_1122334455", "password": "Fed-user-pw-1", "email": "fed@example.com",
            "identities": [{"providerName": "Google", "providerType": "Google", "userId": "1122334455", "primary": "true",
                            "issuer": null, "dateCreated": "1700000000000"}]}],
 "applications": [{"name": "demo", "clientId": "authvault-demo", "redirectURIs": ["http://127.0.0.1:53682/callback", "http://127.0.0.1:53683/callback", "http://127.0.0.1:53684/callback"],
                   "postLogoutRedirectURIs": ["http://127.0.0.1:53682/signed-out"]}]}
EOF
    start_server oauth "$scripts/oauth_server/server.py" "$demo/oauth.json"
    oauth=http://127.0.0.1:$port
    # Three registered ports, as a team would register them: the listener takes the first one free.
    show "$authvault" --profile browser configure --user-pool-id us-east-1_Browser --client-id authvault-demo \
        --oidc-discovery "$oauth" --redirect-uri http://127.0.0.1:53682/callback \
        --redirect-uri http://127.0.0.1:53683/callback --redirect-uri http://127.0.0.1:53684/callback --vault file
    export TEST_BROWSER_LOG=$demo/browser.json TEST_BROWSER_USER=Google_1122334455 TEST_BROWSER_PASSWORD=Fed-user-pw-1
    show "$authvault" --profile browser login --browser-command "$python $scripts/oauth_server/playwright_browser.py"
    for _ in $(seq 100); do [ -s "$TEST_BROWSER_LOG" ] && break; sleep 0.1; done
    "$python" -c 'import json, sys; o = json.load(open(sys.argv[1])); print("The browser tab showed:", o.get("title"), "-", o.get("text", o.get("error")))' "$TEST_BROWSER_LOG"
    show "$authvault" --profile browser status
    show "$authvault" --profile browser logout
else
    step "Browser sign-in skipped: it needs Debian's chromium and PyPI's playwright (make test installs both)"
fi

step "Sign out (the tokens leave the vault first; then the refresh token is revoked)"
show "$authvault" logout
show "$authvault" status || true   # exit status 3: no session
echo
echo "Demo finished: servers stopped, $demo removed."
