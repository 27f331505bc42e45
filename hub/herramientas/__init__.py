"""The MCP tool registry: the domains declare their tools here; the assistant serves them."""
