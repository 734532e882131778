#!/usr/bin/env bash
# Records ordinary developer output that carries digests, fingerprints, ids and public keys (issue 22:
# masking must leave it byte for byte) from REAL runs of the tools on this machine, into
# test/fixtures/ordinary-output/NAME.txt. Nothing here is a secret: hashes of files made on the spot,
# public keys and fingerprints of throwaway keys, git object ids. Re-run to refresh:
#   bash bench/data/record-ordinary.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="$root/test/fixtures/ordinary-output"
work="$(mktemp -d /tmp/engram-ordinary-XXXXXX)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
cd "$work"
rec() { local name="$1"; shift; { "$@" 2>&1 || true; } | sed -e "s#$work#/tmp/work#g" -e "s#$HOME#/home/dev#g" > "$out/$name.txt"; }

# a small package and a git repository with a few commits
mkdir pkg && cd pkg
printf '{"name":"acme-util","version":"1.2.3","main":"index.js","license":"MIT"}\n' > package.json
printf 'module.exports = (a, b) => a + b;\n' > index.js
git init -q -b main . && git -c user.name=CI -c user.email=ci@users.noreply.github.com commit -q --allow-empty -m "init"
git add . && git -c user.name=CI -c user.email=ci@users.noreply.github.com commit -q -m "add util"
printf 'module.exports = (a, b) => a - b;\n' > index.js
git -c user.name=CI -c user.email=ci@users.noreply.github.com commit -q -am "fix: subtract"
git tag v1.2.3
rec git-log git log --format=fuller --abbrev-commit=no
rec git-log-oneline git log --oneline --decorate --no-abbrev
rec git-show git show --stat HEAD
rec git-rev-parse sh -c 'git rev-parse HEAD HEAD~1 v1.2.3^{commit}; git rev-parse --short HEAD; git cat-file -p HEAD'
rec git-reflog git reflog --no-abbrev
rec git-ls-tree git ls-tree -r HEAD
rec git-checkout-detached sh -c "git checkout \$(git rev-parse HEAD~1) 2>&1; git checkout -q main"
rec git-pathspec-error git checkout "$(git rev-parse HEAD | tr '0-9a-f' 'fedcba9876543210fedcba')"
rec npm-pack-dry-run npm pack --dry-run
rec npm-pack-json npm pack --dry-run --json
cd "$work"

# digests of files made here
head -c 4096 /dev/urandom > blob.bin
rec sha256sum sh -c 'sha256sum blob.bin; sha512sum blob.bin; sha1sum blob.bin; md5sum blob.bin'
rec openssl-dgst sh -c 'openssl dgst -sha256 blob.bin; openssl dgst -sha384 -binary blob.bin | openssl base64 -A; echo; openssl rand -hex 16 >/dev/null; echo done'
rec sri-hash sh -c 'printf "sha384-%s\n" "$(openssl dgst -sha384 -binary blob.bin | openssl base64 -A)"'
python3 -c 'import zipfile; z = zipfile.ZipFile("acme_util-1.2.3-py3-none-any.whl", "w"); z.writestr("acme_util/__init__.py", "x = 1\n"); z.close()'
rec pip-hash pip3 hash acme_util-1.2.3-py3-none-any.whl
rec pip-hash-sha512 pip3 hash -a sha512 acme_util-1.2.3-py3-none-any.whl

# throwaway keys: only their public halves and fingerprints are recorded
ssh-keygen -q -t ed25519 -N '' -C ci@build-agent -f id_ed25519
ssh-keygen -q -t rsa -b 2048 -N '' -C deploy@acme -f id_rsa
rec ssh-fingerprints sh -c 'ssh-keygen -l -f id_ed25519.pub; ssh-keygen -l -E md5 -f id_rsa.pub; ssh-keygen -lv -f id_ed25519.pub'
rec ssh-public-keys sh -c 'cat id_ed25519.pub id_rsa.pub'
rec ssh-known-hosts sh -c 'printf "github.acme.io %s\n" "$(cut -d" " -f1,2 id_ed25519.pub)" > known_hosts; ssh-keygen -H -f known_hosts >/dev/null 2>&1; cat known_hosts'
openssl req -x509 -newkey rsa:2048 -nodes -keyout cert.key -out cert.pem -days 1 -subj "/CN=dev.acme.test" 2>/dev/null
rec openssl-x509 sh -c 'openssl x509 -in cert.pem -noout -fingerprint -sha256 -serial -subject -issuer; openssl x509 -in cert.pem -noout -pubkey'
rec openssl-cert-pem cat cert.pem
export GNUPGHOME="$work/gnupg"; mkdir -m 700 "$GNUPGHOME"
gpg --batch --quiet --passphrase '' --quick-gen-key 'CI Bot <ci@users.noreply.github.com>' ed25519 sign 1d 2>/dev/null
rec gpg-list-keys gpg --batch --list-keys --keyid-format long --with-fingerprint
rec gpg-export-public gpg --batch --armor --export

# ids that tools print
rec uuids sh -c 'for i in 1 2 3; do python3 -c "import uuid; print(\"request id\", uuid.uuid4(), \"failed with 503\")"; done; node -e "console.log(\"trace \" + require(\"crypto\").randomUUID())"'
rec cargo-lock sh -c 'cargo new -q --vcs none crate-demo && cd crate-demo && cargo generate-lockfile --offline 2>&1; cat Cargo.lock; cargo metadata --offline --format-version 1 --no-deps 2>/dev/null | head -c 600; echo'
rec node-integrity node -e 'const c=require("crypto");const d=require("fs").readFileSync("blob.bin");console.log(JSON.stringify({integrity:"sha512-"+c.createHash("sha512").update(d).digest("base64"),shasum:c.createHash("sha1").update(d).digest("hex")},null,2))'
echo "recorded $(ls "$out" | wc -l) files in $out"
