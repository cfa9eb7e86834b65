//! Tables that bounds are built from, not bounds themselves: the jam automaton
//! ([`jam`], the other unit's slack in busy cycles) and the exact idle cycles of every
//! state of few warps ([`end_game`]).

pub mod end_game;
pub mod jam;
