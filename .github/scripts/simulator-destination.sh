#!/usr/bin/env bash
# Prints an xcodebuild destination for the newest available simulator of a platform:
#   .github/scripts/simulator-destination.sh iOS      ->  platform=iOS Simulator,id=<UDID>
# PLATFORM is the name in the simulator runtime's identifier (iOS, tvOS, watchOS, xrOS). Device
# names change with every Xcode, so the device is picked from `simctl`'s list, not named here.
set -euo pipefail
platform="${1:?usage: $0 iOS|tvOS|watchOS|xrOS}"
xcrun simctl list devices available --json | python3 -c '
import json
import sys

platform = sys.argv[1]
best = None
for runtime, devices in json.load(sys.stdin)["devices"].items():
    # com.apple.CoreSimulator.SimRuntime.iOS-26-1
    name = runtime.rsplit(".", 1)[-1]
    if not name.startswith(platform + "-"):
        continue
    version = tuple(int(part) for part in name[len(platform) + 1:].split("-") if part.isdigit())
    for device in devices:
        if device.get("isAvailable", True) and (best is None or version > best[0]):
            best = (version, device["udid"])
if best is None:
    sys.exit(f"no available {platform} simulator")
destination = "visionOS" if platform == "xrOS" else platform
print(f"platform={destination} Simulator,id={best[1]}")
' "$platform"
