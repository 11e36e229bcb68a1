#!/usr/bin/env bash
# The sandbox's own specs as an ordinary user (issue 28: "as root and as an ordinary user"). Root is
# exempt from file permissions and RLIMIT_NPROC and gets the pids cgroup; an ordinary user gets
# bubblewrap through a user namespace, prlimit's process cap, and read-only placeholders it owns.
# Run as root, it makes the user `openspace-user` and runs the specs as it, in a copy of this tree.
set -euo pipefail
cd "$(dirname "$0")/.."
specs=(src/security/sandbox-host.test.ts src/security/sandbox-network.test.ts)
if [ "$(id -u)" != 0 ]; then
  npx vitest run --project unit "${specs[@]}"
  exec npx vitest run --project conformance:sim-disk conformance/specs/sandbox.test.ts
fi
user=openspace-user
id -u "$user" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$user"
copy=$(mktemp -d /var/tmp/openspace-as-user-XXXXXX)
trap 'rm -rf "$copy"' EXIT
# Everything but Theia (these specs need none of it) and git's own directory.
tar -c --exclude=./theia-app --exclude=./.git --exclude=./reports . | tar -x -C "$copy"
mkdir -p "$copy/theia-app" "$copy/.home"
chown -R "$user" "$copy"
echo "== the sandbox's specs as $user (uid $(id -u "$user"))"
cd "$copy"
runuser -u "$user" -- env -u OPENSPACE_TOKEN HOME="$copy/.home" PATH="$PATH" CI="${CI:-}" bash ci/test-as-user.sh
