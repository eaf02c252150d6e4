#!/bin/sh
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# sign.sh - scripts/sign.sh signs the Windows programs and the MSI: with a throw-away certificate
# made here by openssl (as a PEM certificate and key, and as a PKCS#12 file with a password), each
# signed copy passes `osslsigncode verify` against that certificate, an unsigned or altered copy
# does not, and a missing certificate or a wrong password is refused saying so. Skipped (77) when
# osslsigncode is not installed. Usage: sign.sh SIGN-SCRIPT PROGRAM.exe INSTALLER.msi
set -u
script=$1 exe=$2 msi=$3
command -v osslsigncode >/dev/null 2>&1 || {
  echo "skipped: osslsigncode is not installed (Debian package osslsigncode)"
  exit 77
}
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
openssl req -x509 -newkey rsa:2048 -nodes -keyout key.pem -out cert.pem -days 2 \
  -subj "/CN=ThreadSoup test signing" -addext "extendedKeyUsage=codeSigning" 2>/dev/null ||
  fail "openssl could not make a certificate"
openssl pkcs12 -export -inkey key.pem -in cert.pem -out cert.pfx -passout pass:s3cret ||
  fail "openssl could not make a PKCS#12 file"
cp "$exe" program.exe && cp "$msi" installer.msi && cp "$exe" unsigned.exe || fail "cannot copy"

verified() { osslsigncode verify -CAfile cert.pem -in "$1" >"$1.verify" 2>&1; }

# A certificate and its key.
SIGN_CERT=cert.pem SIGN_KEY=key.pem sh "$script" program.exe >out 2>&1 ||
  fail "signing with SIGN_CERT and SIGN_KEY failed: $(cat out)"
grep -q "signed program.exe" out || fail "sign.sh did not say what it signed: $(cat out)"
verified program.exe || fail "the signed program does not verify: $(cat program.exe.verify)"
grep -q "ThreadSoup test signing" program.exe.verify ||
  fail "the signature does not name the certificate: $(cat program.exe.verify)"
echo "program signed with a certificate and key, verified"

# A PKCS#12 file with a password, for the MSI.
SIGN_PKCS12=cert.pfx SIGN_PASSWORD=s3cret sh "$script" installer.msi >out 2>&1 ||
  fail "signing with SIGN_PKCS12 failed: $(cat out)"
verified installer.msi || fail "the signed MSI does not verify: $(cat installer.msi.verify)"
echo "MSI signed from a PKCS#12 file, verified"

# What must not verify: no signature, and a signed program changed afterwards.
verified unsigned.exe && fail "an unsigned program verified"
cp program.exe altered.exe
size=$(wc -c <altered.exe)
printf 'X' | dd of=altered.exe bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
verified altered.exe && fail "a program changed after signing still verified"
echo "unsigned and altered programs do not verify"

# Refusals: no certificate, both kinds at once, a wrong password (the file is left unsigned).
sh "$script" unsigned.exe >out 2>&1 && fail "signing without a certificate succeeded"
grep -q "no certificate: set SIGN_CERT and SIGN_KEY" out || fail "no certificate: said $(cat out)"
SIGN_PKCS12=cert.pfx SIGN_CERT=cert.pem SIGN_KEY=key.pem sh "$script" unsigned.exe >out 2>&1 &&
  fail "signing with two certificates succeeded"
grep -q "not both" out || fail "two certificates: said $(cat out)"
SIGN_PKCS12=cert.pfx SIGN_PASSWORD=wrong sh "$script" unsigned.exe >out 2>&1 &&
  fail "signing with a wrong password succeeded"
grep -q "could not sign unsigned.exe" out || fail "wrong password: said $(cat out)"
verified unsigned.exe && fail "a refused signing left a signature"
echo "refused: no certificate, two certificates, a wrong password"
