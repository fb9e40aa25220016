#!/usr/bin/env bash
# Installs what IDB needs to build and test from Debian's packages, and nothing when all
# of it is there already. Safe to run again. Run as root (or with sudo available).
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git python3
  libgtest-dev libgmock-dev libbenchmark-dev
  clang-format clang-tidy binutils
  libsqlite3-dev sqlite3
  postgresql libpqxx-dev libpq-dev
  openmpi-bin libopenmpi-dev
  librsvg2-bin
  clang-14 libclang-rt-14-dev
  libclang-14-dev libclang-cpp14-dev llvm-14-dev libclang-common-14-dev
  qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev
)

missing=()
for p in "${packages[@]}"; do
  if [[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" != "install ok installed" ]]; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "setup: need root to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
