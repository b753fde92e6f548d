//! The arena: games between UCI engines (see the arena issue).
