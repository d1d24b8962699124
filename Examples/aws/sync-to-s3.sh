#!/bin/sh
# Uploads a directory to S3 with the AWS credentials of AuthVault profile $AUTHVAULT_PROFILE (default: "default"),
# served to the one 'aws' process only (the SDKs' container-credentials endpoint, fresh however long the sync takes):
# nothing is exported to this shell or written to disk.
#   AUTHVAULT_PROFILE=work Examples/aws/sync-to-s3.sh ./site s3://my-bucket/site
set -eu
if [ $# -ne 2 ]; then
    echo "usage: $0 DIRECTORY s3://BUCKET/PREFIX" >&2
    exit 2
fi
exec authvault exec --aws -- aws s3 sync "$1" "$2"
