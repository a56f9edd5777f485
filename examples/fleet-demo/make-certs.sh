#!/usr/bin/env bash
# Makes the fleet demo's certificates with openssl (docs/fleet.md, "Running it locally"): a CA, the
# pickers' summary certificate (localhost, 127.0.0.1) and the fleet's client certificate, in
# .pointsman/fleet/ under the current folder (run it from the repository root).
set -euo pipefail
out=.pointsman/fleet
mkdir -p "$out"
cd "$out"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 30 \
  -subj /CN=pointsman-fleet-demo-ca -keyout ca.key -out ca.pem 2>/dev/null
for who in picker fleet; do
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=$who" \
    -keyout "$who.key" -out "$who.csr" 2>/dev/null
done
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' > picker.ext
printf 'extendedKeyUsage=clientAuth\n' > fleet.ext
for who in picker fleet; do
  openssl x509 -req -in "$who.csr" -CA ca.pem -CAkey ca.key -CAcreateserial -days 30 \
    -extfile "$who.ext" -out "$who.crt" 2>/dev/null
done
rm -f ./*.csr ./*.ext ca.srl
echo "certificates in $out: ca.pem, picker.crt/key (summary listeners), fleet.crt/key (fleet client)"
