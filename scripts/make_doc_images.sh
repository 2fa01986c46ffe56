#!/usr/bin/env bash
# Render the workbook pictures of docs/handbook.md (dev machines only; CI does not need it).
#
#   docs/img/template.png         registration template of T2020 branch b01 (league template)
#   docs/img/returned-issues.png  a returned workbook: its 问题清单 sheet (over-quota mistake)
#   docs/img/returned.png         the same workbook: 报名表 with the problem cells highlighted
#   docs/img/result-sheet.png     a referee's result sheet (xiangqi-r1-成绩表.xlsx)
#
# Needs LibreOffice Calc (apt-get install -y libreoffice-calc-nogui) and poppler-utils.
#     scripts/make_doc_images.sh            # from the repository root
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PY="${PYTHON:-/work/venv/bin/python}"
[ -x "$PY" ] || PY=python3
IMG="$ROOT/docs/img"
NOW="2030-01-01T00:00+08:00"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
command -v soffice >/dev/null || { echo "soffice not found: apt-get install -y libreoffice-calc-nogui" >&2; exit 1; }
command -v pdftoppm >/dev/null || { echo "pdftoppm not found: apt-get install -y poppler-utils" >&2; exit 1; }

league() { (cd "$ROOT" && PYTHONPATH="$ROOT" "$PY" -m pipeline "$@"); }

# 1. the registration template of one branch
league template "$ROOT/sample_sheets/t2020-league" --branch b01 --out "$TMP/tpl" >/dev/null
mkdir -p "$TMP/pdf"
cp "$TMP"/tpl/t2020-league/templates/*-b01-*.xlsx "$TMP/pdf/template.xlsx"

# 2. the badinput mistakes: a copy of T2020 with inbox-mistakes/*.eml in its inbox
cp -a "$ROOT/sample_sheets/t2020-league" "$TMP/t2020-league"
cp "$ROOT"/sample_sheets/t2020-league/inbox-mistakes/*.eml "$TMP/t2020-league/inbox/"
league run "$TMP/t2020-league" --out "$TMP/out" --no-pdf --now "$NOW" >/dev/null || true   # exit 1: issues found
cp "$(ls "$TMP"/out/t2020-league/returned/*over-quota*.xlsx | head -1)" "$TMP/pdf/returned.xlsx"
cp "$TMP/out/t2020-league/results/xiangqi-r1-成绩表.xlsx" "$TMP/pdf/result.xlsx"

# 3. workbooks → PDF (a private LibreOffice profile, so nothing of ~ is touched)
(cd "$TMP/pdf" && soffice "-env:UserInstallation=file://$TMP/lo" --headless --convert-to pdf \
    template.xlsx returned.xlsx result.xlsx >/dev/null 2>&1)

# 4. PDF page → PNG at 60 dpi (the returned workbook: page 1 is 问题清单, page 2 报名表)
mkdir -p "$IMG"
page() { pdftoppm -r "${4:-60}" -png -f "$2" -l "$2" -singlefile ${5:-} "$TMP/pdf/$1.pdf" "$IMG/$3"; }
page template 1 template
page returned 2 returned
page returned 1 returned-issues 90 "-x 40 -y 80 -W 960 -H 200"   # only the filled top of the page
page result 1 result-sheet
for f in template returned returned-issues result-sheet; do
    size=$(stat -c %s "$IMG/$f.png")
    [ "$size" -lt 300000 ] || { echo "$IMG/$f.png is $size bytes (limit 300 KB)" >&2; exit 1; }
    echo "$IMG/$f.png  $size bytes"
done
