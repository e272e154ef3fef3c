"""effbatch's Slack shell around ``core``.

document.py   what an answer says, decided once (dependency-free)
texts/        every German text, by audience
rendering/    core results → document → Block Kit or terminal text; views
slack/        the Bolt app: factory, listeners, Web API calls
serving/      entry points and transports: CLI, console, HTTP, Socket Mode, Lambda
operations/   settings, metrics, logs
"""
