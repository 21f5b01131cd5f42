"""scim2-tester (https://pypi.org/project/scim2-tester/) against one SCIM service provider.

    python3 scimConformance.py <base url> <bearer token>

Prints one line per check (status, title, reason) and a closing count; exits 1 when any check is not a success.
Driven by test/contract/runScimConformance.ts, which installs the pinned package and makes a fresh directory.
"""

import sys

from httpx2 import Client
from scim2_client.engines.httpx2 import SyncSCIMClient
from scim2_tester import Status, check_server


def main() -> int:
    base_url, token = sys.argv[1], sys.argv[2]
    http = Client(base_url=base_url, headers={"Authorization": f"Bearer {token}"}, timeout=30)
    results = check_server(SyncSCIMClient(http), raise_exceptions=False)
    failures = 0
    for result in results:
        # SKIPPED is the tester saying the server does not offer an optional feature it advertises as absent.
        ok = result.status in (Status.SUCCESS, Status.SKIPPED)
        failures += 0 if ok else 1
        reason = f" :: {result.reason}" if result.reason and result.status != Status.SUCCESS else ""
        print(f"{result.status.name:8} {result.title}{reason}")
    print(f"{len(results)} checks, {failures} failed")
    return 1 if failures or not results else 0


if __name__ == "__main__":
    sys.exit(main())
