#!/usr/bin/env python3
"""Build one SwiftPM executable product and copy it to where Meson wants it.

meson.build runs this from a custom_target, since Meson has no SwiftPM support:

    build_swift.py --swift SWIFT --package-path DIR --configuration release \
                   --product image-gallery --output BUILDDIR/image-gallery -- [SWIFT BUILD ARGS…]

It runs `swift build -c CONFIG --product PRODUCT` in the package (so the
package's usual .build directory is used, and a debug build made by a plain
`swift build` is reused), asks SwiftPM for its bin path, and copies the
executable to OUTPUT.
"""

import argparse
import os
import shutil
import subprocess
import sys


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--swift", required=True, help="the swift driver")
    parser.add_argument("--package-path", required=True, help="directory holding Package.swift")
    parser.add_argument("--configuration", choices=("debug", "release"), required=True)
    parser.add_argument("--product", required=True, help="SwiftPM executable product")
    parser.add_argument("--output", required=True, help="where to copy the executable")
    parser.add_argument("swift_build_args", nargs="*", help="more arguments for swift build, after --")
    args = parser.parse_args()

    swift_build = [args.swift, "build", "--package-path", args.package_path,
                   "--configuration", args.configuration] + args.swift_build_args
    try:
        subprocess.run(swift_build + ["--product", args.product], check=True)
        bin_path = subprocess.run(swift_build + ["--show-bin-path"], check=True,
                                  stdout=subprocess.PIPE, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError) as error:
        print(f"build_swift.py: swift build failed: {error}", file=sys.stderr)
        return 1

    # --show-bin-path prints the path on its last line.
    executable = os.path.join(bin_path.splitlines()[-1], args.product)
    if not os.path.isfile(executable):
        print(f"build_swift.py: swift build did not produce {executable}", file=sys.stderr)
        return 1

    # Copy beside the output, then rename, so an interrupted copy never
    # leaves a truncated executable that looks up to date.
    partial = args.output + ".partial"
    shutil.copy2(executable, partial)
    os.replace(partial, args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
