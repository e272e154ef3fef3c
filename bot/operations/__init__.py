"""Running the bot: settings, metrics and logs."""
