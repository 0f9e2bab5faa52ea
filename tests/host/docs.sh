#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The front page and docs/: README.md under 150 lines, its first command
# the apt-get line; every Markdown table fits 100 columns; the two .rst
# pages are what deploy/render-docs.sh renders from the default base's
# patched tree (make docs) and parse outside the kernel (docutils, errors fatal);
# every docs/ link of README.md exists; README.md's headline is, line for
# line, that of the results page it names (make publish-results), and
# that page says which commit, kernel, QEMU and host made it; the lines
# each series' cover letter quotes are in the page it names, and so are
# those README.md quotes from a record (its times).  Prints TAP.
. "$(dirname "${BASH_SOURCE[0]}")/../../qemu/lib.sh"
echo "TAP version 13"
echo "1..9"
n=0 failed=0
check() {
	n=$((n + 1))
	if eval "$2"; then echo "ok $n - $1"; else failed=$((failed + 1)); echo "not ok $n - $1"; fi
}
cd "$TOP" || exit 1
lines=$(wc -l < README.md)
first=$(grep -m 1 '^    [a-z]' README.md)
check "README.md is a front page: $lines lines (< 150), first command: $first" \
	'[ "$lines" -lt 150 ] && [ "${first#    apt-get }" != "$first" ]'
wide=$(awk 'FNR == 1 { f = FILENAME } /^\|/ && length > 100 { print f ":" FNR }' README.md docs/*.md CHANGELOG.md)
check "every table fits 100 columns${wide:+: $wide}" '[ -z "$wide" ]'
# docs/ renders the default base's pages, whichever base this run tests.
dflt=(env KVER="$DEFAULT_KVER" BUILD="$TOP/build/$DEFAULT_KVER")
"${dflt[@]}" "$TOP/qemu/tree.sh" > /dev/null 2>&1 &&
	"${dflt[@]}" "$TOP/deploy/render-docs.sh" --check > "$BUILD/test/host/docs.render" 2>&1
rc=$?
sed 's/^/# /' "$BUILD/test/host/docs.render"
check "docs/sched-notick.rst and docs/offsched.rst are the default base's ($DEFAULT_KVER) patched tree's (make docs)" '[ $rc = 0 ]'
check "both .rst pages parse outside the kernel (rst2html, errors fatal)" \
	'rst2html --halt=error docs/sched-notick.rst > /dev/null && rst2html --halt=error docs/offsched.rst > /dev/null'
missing=$(grep -o '](docs/[^)]*)\|](CHANGELOG.md)\|](LICENSE)' README.md | sed 's/^](//; s/)$//' |
	while read -r f; do [ -e "$f" ] || printf '%s ' "$f"; done)
check "every file README.md links to exists${missing:+; missing: $missing}" '[ -z "$missing" ]'
# The headline: the lines between README.md's markers, and the page's
page=$(sed -n 's/^<!-- headline from \(docs\/results\/[^ ]*\.md\) -->$/\1/p' README.md | head -n 1)
quoted() { sed -n "/^$1/,/^<!-- headline end -->\$/p" "$2" | sed '1d;$d'; }
same=no
if [ -n "$page" ] && [ -f "$page" ] &&
   grep -q '^- commit: `[0-9a-f]\{40\}` .*, tree clean$' "$page" &&
   grep -q '^- QEMU: ' "$page" && grep -q '^- host: ' "$page" &&
   grep -q '^- status: every scenario ran' "$page" &&
   [ -n "$(quoted '<!-- headline begin -->' "$page")" ] &&
   [ "$(quoted '<!-- headline from ' README.md)" = "$(quoted '<!-- headline begin -->' "$page")" ]; then
	same=yes
fi
check "README.md's headline is that of the results page it names (${page:-none}), which has its provenance" \
	'[ $same = yes ]'
# Each cover letter's numbers: the lines between "-- from PAGE --" and
# "-- end --", each one in PAGE, a table among them
for series in offsched sched-notick; do
	cover=patches/$series/$KVER/0000-cover-letter.patch
	[ -f "$cover" ] || cover=/dev/null
	cpage=$(sed -n 's/^-- from \(docs\/results\/[^ ]*\.md\) --$/\1/p' "$cover" | head -n 1)
	cmiss=unread
	if [ -n "$cpage" ] && [ -f "$cpage" ]; then
		cmiss=$(sed -n "\|^-- from $cpage --\$|,/^-- end --\$/p" "$cover" | sed '1d;$d' | grep -v '^$' |
			while IFS= read -r l; do grep -qxF -- "$l" "$cpage" || printf '%s\n' "${l:0:40}"; done)
		[ -n "$(sed -n "\|^-- from $cpage --\$|,/^-- end --\$/p" "$cover" | grep '^| ')" ] ||
			cmiss="no table quoted"
	fi
	check "the $series cover letter: its numbers are lines of the results page it names (${cpage:-none})${cmiss:+; not there: $cmiss}" \
		'[ -z "$cmiss" ]'
done
# README.md's quotes of a record (make test's times): the lines between
# "<!-- quoted from PAGE -->" and "<!-- quoted end -->", each one in PAGE,
# a page of a commit on a clean tree; at least one such block
qmiss=
blocks=$(sed -n 's/^<!-- quoted from \(docs\/results\/[^ ]*\.md\) -->$/\1/p' README.md)
[ -n "$blocks" ] || qmiss="no quoted block"
for qpage in $blocks; do
	if [ ! -f "$qpage" ] || ! grep -q '^- commit: `[0-9a-f]\{40\}` .*, tree clean$' "$qpage"; then
		qmiss="$qmiss $qpage (no such page of a clean tree)"
		continue
	fi
	qmiss=$qmiss$(sed -n "\|^<!-- quoted from $qpage -->\$|,/^<!-- quoted end -->\$/p" README.md |
		sed '1d;$d' | grep -v '^$' |
		while IFS= read -r l; do grep -qxF -- "$l" "$qpage" || printf ' %s' "${l:0:40}"; done)
done
check "README.md's quoted times are lines of the records they name (${blocks//$'\n'/ })${qmiss:+; not there:$qmiss}" \
	'[ -z "$qmiss" ]'
[ $failed = 0 ]
