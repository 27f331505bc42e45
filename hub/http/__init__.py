"""HTTP plumbing: the API base, middleware, envelopes, parsers, bodies, error pages, headers,
client IP, links and limits."""
