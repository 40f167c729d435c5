"""Talk to an installed mekref's ``mekref serve --grpc`` through its installed stubs.

Run by .ci/wheel-check with the fresh venv's python, from a folder outside the source tree:
it must import ``mekref.v1`` (mekref-api) from site-packages. Arguments: ADDRESS TOKEN
CAMPAIGN_ID. Exit 0 when the campaign made by the console script is listed over gRPC. Where
mekref-client is installed, its ``mekref.client.connect`` (the token on every call) lists it too.
"""

from __future__ import annotations

import sys
from pathlib import Path

import grpc

import mekref.v1
from mekref.v1 import campaign_pb2, campaign_pb2_grpc


def main(address: str, token: str, campaign_id: str) -> int:
    where = Path(mekref.v1.__file__).resolve()
    print(f"mekref.v1 imported from {where.parent}")
    if "site-packages" not in where.parts:
        print("mekref.v1 does not come from the installed wheel", file=sys.stderr)
        return 1
    shipped = sorted(p.name for p in where.parent.glob("*.proto"))
    print(f"shipped .proto files: {', '.join(shipped)}")
    if "campaign.proto" not in shipped:
        print("the wheel does not ship the .proto files", file=sys.stderr)
        return 1
    with grpc.insecure_channel(address) as channel:
        stub = campaign_pb2_grpc.CampaignServiceStub(channel)
        reply = stub.ListCampaigns(
            campaign_pb2.ListCampaignsRequest(),
            metadata=[("authorization", f"Bearer {token}")],
            timeout=30,
        )
    listed = {c.campaign_id: c for c in reply.campaigns}
    print(f"ListCampaigns: {[(c.name, c.ruleset) for c in reply.campaigns]}")
    if campaign_id not in listed:
        print(f"campaign {campaign_id} is not listed", file=sys.stderr)
        return 1
    return _through_the_client_package(address, token, campaign_id)


def _through_the_client_package(address: str, token: str, campaign_id: str) -> int:
    try:
        from mekref.client import connect
    except ImportError:
        print("no mekref-client here (mekref.client): the server's venv")
        return 0
    with connect(address, token) as channel:
        reply = campaign_pb2_grpc.CampaignServiceStub(channel).ListCampaigns(
            campaign_pb2.ListCampaignsRequest(), timeout=30
        )
    if campaign_id not in {c.campaign_id for c in reply.campaigns}:
        print(f"mekref.client.connect: campaign {campaign_id} is not listed", file=sys.stderr)
        return 1
    print("mekref.client.connect: the token travelled, the campaign is listed")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
