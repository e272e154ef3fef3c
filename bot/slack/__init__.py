"""The Bolt app: the factory that wires it, the listeners, and calls to Slack's Web API."""
