//! daifugo: rules engine, referee, view and bots (in progress).
