"""`make bench`: the hub, a bare Django view and the MCP SDK peer under wrk, at scale."""
