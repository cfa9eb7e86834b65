//! Experiments of the paper and of this tool: the approximation (eqs. 42-43), the
//! convergence and constraint-form experiments (Figs. 5-7), and the seeded benchmark
//! suite.

pub mod approx;
pub mod bench;
pub mod convergence;
