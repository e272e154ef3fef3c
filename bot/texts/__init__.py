"""Every German text effbatch shows, by audience.

``glossary`` the names of things, shared by all; ``answers`` what answers, buttons,
the form and the console say; ``problems`` the messages for bad input, keyed by
``ProblemKind``; ``help`` the help and the App Home; ``operator`` what whoever runs
the bot reads (settings, start-up, the command line). No text here formats a number
or escapes user text: ``bot.rendering`` fills them in.
"""
