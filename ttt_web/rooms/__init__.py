"""Rooms: a game between two devices through a link, kept live by an event stream."""
