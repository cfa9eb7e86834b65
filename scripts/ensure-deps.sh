#!/usr/bin/env bash
# Makes sure the build prerequisites of highs-sys are present: cargo, cmake, a C++
# compiler and libclang (for bindgen). Installs what is missing with apt-get when run
# as root on Debian/Ubuntu; otherwise stops with the exact command to run.
set -euo pipefail

missing=()
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
command -v c++ >/dev/null 2>&1 || command -v g++ >/dev/null 2>&1 || missing+=(g++)
have_libclang() {
  # bindgen needs libclang and clang's own headers: on Debian/Ubuntu, a libclang-*-dev package.
  if command -v dpkg-query >/dev/null 2>&1; then
    dpkg-query -W -f='${Status} ${Package}\n' 'libclang-*dev' 2>/dev/null | grep -q '^install ok installed'
    return
  fi
  [ -n "${LIBCLANG_PATH:-}" ] && ls "$LIBCLANG_PATH"/libclang*.so* >/dev/null 2>&1 && return 0
  ls /usr/lib/llvm-*/lib/libclang.so /usr/lib/*/libclang.so /usr/lib64/libclang.so >/dev/null 2>&1
}
have_libclang || missing+=(libclang-dev)

if [ ${#missing[@]} -gt 0 ]; then
  line="apt-get update && apt-get install -y ${missing[*]}"
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing build prerequisites: ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq "${missing[@]}" >&2
  else
    echo "error: missing build prerequisites: ${missing[*]}. Run as root: $line" >&2
    exit 1
  fi
fi

if ! command -v cargo >/dev/null 2>&1; then
  echo "error: cargo not found. Install Rust (rustup) and rerun." >&2
  exit 1
fi
