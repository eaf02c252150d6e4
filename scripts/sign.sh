#!/bin/sh
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# sign.sh - signs Windows programs and installers in place with an Authenticode signature
# (osslsigncode, SHA-256), so that Windows names the publisher instead of "Unknown publisher".
# The certificate comes from the environment, one of:
#   SIGN_CERT=cert.pem SIGN_KEY=key.pem [SIGN_PASSWORD=...]   a certificate (chain) and its key
#   SIGN_PKCS12=cert.pfx [SIGN_PASSWORD=...]                  a PKCS#12 file holding both
# SIGN_TIMESTAMP=URL adds an RFC 3161 timestamp (the signature then outlives the certificate).
# The password goes to osslsigncode in a file (-readpass), never on a command line.
#   sh scripts/sign.sh FILE...          `make windows` calls it when SIGN_CERT or SIGN_PKCS12 is set
set -eu
[ $# -ge 1 ] || {
  echo "usage: sign.sh FILE... (with SIGN_CERT and SIGN_KEY, or SIGN_PKCS12, set)" >&2
  exit 2
}
command -v osslsigncode >/dev/null 2>&1 || {
  echo "sign.sh: osslsigncode is not installed (Debian: apt-get install osslsigncode)" >&2
  exit 1
}
cert=${SIGN_CERT:-} key=${SIGN_KEY:-} pkcs12=${SIGN_PKCS12:-}
if [ -n "$pkcs12" ] && [ -n "$cert$key" ]; then
  echo "sign.sh: give SIGN_PKCS12, or SIGN_CERT with SIGN_KEY, not both" >&2
  exit 2
elif [ -z "$pkcs12" ] && { [ -z "$cert" ] || [ -z "$key" ]; }; then
  echo "sign.sh: no certificate: set SIGN_CERT and SIGN_KEY (PEM or DER), or SIGN_PKCS12" >&2
  exit 2
fi
for f in $pkcs12 $cert $key; do
  [ -r "$f" ] || { echo "sign.sh: cannot read $f (SIGN_CERT, SIGN_KEY or SIGN_PKCS12)" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
: >"$work/pass"
chmod 600 "$work/pass"
printf '%s' "${SIGN_PASSWORD:-}" >"$work/pass"

# One file: osslsigncode writes the signed copy beside, which then replaces the file's content.
sign_one() {
  out="$work/signed"
  rm -f "$out"
  if [ -n "$pkcs12" ]; then
    set -- -pkcs12 "$pkcs12" "$@"
  else
    set -- -certs "$cert" -key "$key" "$@"
  fi
  [ -z "${SIGN_PASSWORD:-}" ] || set -- "$@" -readpass "$work/pass"
  [ -z "${SIGN_TIMESTAMP:-}" ] || set -- "$@" -ts "$SIGN_TIMESTAMP"
  osslsigncode sign "$@" -h sha256 -n ThreadSoup -in "$file" -out "$out" >"$work/log" 2>&1 || {
    cat "$work/log" >&2
    echo "sign.sh: osslsigncode could not sign $file" >&2
    exit 1
  }
  cat "$out" >"$file"
  echo "signed $file"
}

for file in "$@"; do
  [ -f "$file" ] || { echo "sign.sh: no file $file" >&2; exit 2; }
  sign_one
done
