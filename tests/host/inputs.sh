#!/bin/sh
# tests/inputs.sh, the hash make check keys its kept results on: the same
# for the same inputs, different when any input changes, and none at all
# for a checkout with uncommitted or untracked files.  A hash that missed
# an input would let make check report a pass it never measured.
#
# Runs on a scratch clone of HEAD with a scratch build/ of stand-in stamps
# and images: the real build/ is not touched.
. "$(dirname "$0")/lib.sh"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
clone=$scratch/clone
git clone -q "$TOP" "$clone"
git -C "$clone" config user.email inputs-test@localhost
git -C "$clone" config user.name "inputs test"
mkdir -p "$clone/build/out/step-00" "$clone/build/out/mainline" "$clone/build/debroot"
echo "commit-a config-a" >"$clone/build/out/step-00/stamp"
echo "commit-m config-m" >"$clone/build/out/mainline/stamp"
echo "image" | gzip >"$clone/build/initramfs.cpio.gz"
echo "root" >"$clone/build/debroot/qemu-only.tar"

key() {
	env TOP="$clone" BUILD="$clone/build" sh "$TOP/tests/inputs.sh"
}

first=$(key)
check "a clean clone has a hash" [ -n "$first" ]
check "the same inputs give the same hash" [ "$(key)" = "$first" ]

echo "commit-b config-a" >"$clone/build/out/step-00/stamp"
check "a step kernel built from another commit changes it" [ "$(key)" != "$first" ]
echo "commit-a config-a" >"$clone/build/out/step-00/stamp"
check "... and back" [ "$(key)" = "$first" ]

echo "commit-m config-n" >"$clone/build/out/mainline/stamp"
check "the mainline kernel built with another config changes it" [ "$(key)" != "$first" ]
echo "commit-m config-m" >"$clone/build/out/mainline/stamp"

echo "other image" | gzip >"$clone/build/initramfs.cpio.gz"
check "another initramfs changes it" [ "$(key)" != "$first" ]
echo "image" | gzip >"$clone/build/initramfs.cpio.gz"

echo "a newer root" >"$clone/build/debroot/qemu-only.tar"
check "another cached Debian root changes it" [ "$(key)" != "$first" ]
echo "root" >"$clone/build/debroot/qemu-only.tar"
touch -d @0 "$clone/build/debroot/qemu-only.tar"
first=$(key)

echo "# an edit" >>"$clone/steps/series"
expect_fail "an uncommitted edit gives no hash" "uncommitted changes" key
git -C "$clone" commit -q -a -m "an edit"
edited=$(key)
check "... committed, a hash other than before" test -n "$edited" -a "$edited" != "$first"

echo "new" >"$clone/untracked-file"
expect_fail "an untracked file gives no hash" "uncommitted changes" key
rm "$clone/untracked-file"

echo "new" >"$clone/build/scratch-file"
check "files under build/ (ignored) do not count" [ "$(key)" = "$edited" ]

check "a knob in the environment (make check BPFTOK_ROUNDS=1) changes it" \
	[ "$(BPFTOK_ROUNDS=1 key)" != "$edited" ]
check "... one that only changes how it runs (VM_SLOTS) does not" \
	[ "$(VM_SLOTS=1 key)" = "$edited" ]
# the packages: a stand-in dpkg-query that lists one more
mkdir "$scratch/bin"
cat >"$scratch/bin/dpkg-query" <<EOF
#!/bin/sh
/usr/bin/dpkg-query "\$@"
echo "qemu-system-x86 9:99 amd64"
EOF
chmod +x "$scratch/bin/dpkg-query"
check "another installed package changes it" \
	[ "$(PATH="$scratch/bin:$PATH" key)" != "$edited" ]
rm "$scratch/bin/dpkg-query"

# the user: a stand-in id for uid 1000 (some tests need root)
cat >"$scratch/bin/id" <<EOF
#!/bin/sh
[ "\$*" = -u ] && echo 1000 || exec /usr/bin/id "\$@"
EOF
chmod +x "$scratch/bin/id"
user_key=$(PATH="$scratch/bin:$PATH" key)
check "another user changes it" test -n "$user_key" -a "$user_key" != "$edited"
rm "$scratch/bin/id"

# the day: a stand-in date for tomorrow
cat >"$scratch/bin/date" <<EOF
#!/bin/sh
exec /bin/date -d tomorrow "\$@"
EOF
chmod +x "$scratch/bin/date"
check "tomorrow, everything runs again" [ "$(PATH="$scratch/bin:$PATH" key)" != "$edited" ]

done_testing
