# Shared by bin/run and bin/test: find a Python >= 3.11 and make .venv with the given extra.
# Usage: . bin/_venv.sh EXTRA   (EXTRA is "" or "test")
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${VENV:-$ROOT/.venv}"

find_python() {
  if [ -n "${PYTHON:-}" ]; then echo "$PYTHON"; return; fi
  local candidates=(python3.13 python3.12)
  if command -v pyenv >/dev/null 2>&1; then
    local root; root="$(pyenv root)"
    candidates+=("$root"/versions/3.13*/bin/python3 "$root"/versions/3.12*/bin/python3)
  fi
  candidates+=(python3.11 python3)
  for py in "${candidates[@]}"; do
    if command -v "$py" >/dev/null 2>&1 && "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
      echo "$py"; return
    fi
  done
  echo "Torneo needs Python 3.11 or newer; none was found." >&2
  exit 1
}

ensure_venv() {
  local extra="$1"
  if [ ! -x "$VENV/bin/python" ]; then
    local py; py="$(find_python)"
    echo "Creating $VENV with $("$py" --version)"
    "$py" -m venv "$VENV"
  fi
  local stamp="$VENV/.installed-${extra:-base}"
  # The test extra holds the base install: a venv made for the tests serves as it is.
  if [ -z "$extra" ] && [ -f "$VENV/.installed-test" ] && ! [ "$ROOT/pyproject.toml" -nt "$VENV/.installed-test" ]; then
    return 0
  fi
  if [ ! -f "$stamp" ] || [ "$ROOT/pyproject.toml" -nt "$stamp" ]; then
    "$VENV/bin/python" -m pip install --quiet --upgrade pip
    local target="$ROOT"
    [ -n "$extra" ] && target="$ROOT[$extra]"
    "$VENV/bin/python" -m pip install --quiet "$target"
    touch "$stamp"
  fi
}
