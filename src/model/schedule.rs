//! Schedules: the cycle in which each warp issues each instruction.
//!
//! A [`Schedule`] is plain data; whether it is a valid work-conserving schedule is
//! decided only by [`crate::model::checker::check`].

use crate::model::kernel::{Kernel, Unit};
use serde::Serialize;

/// `cycles[w][i]` = the 1-based cycle in which warp `w` issues instruction `i`
/// (both 0-based here; 1-based in every printed or serialised form).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    /// Issue cycle per warp per instruction.
    pub cycles: Vec<Vec<u64>>,
}

/// One issued instruction, as printed in `--json` (all fields 1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Issue {
    /// Warp, 1-based.
    pub warp: usize,
    /// Instruction index in the (transformed) kernel, 1-based.
    pub instruction: usize,
    /// `L` or `C`.
    pub unit: Unit,
    /// Cycle, 1-based.
    pub cycle: u64,
}

impl Schedule {
    /// The last cycle in which any warp issues (0 for an empty schedule).
    pub fn makespan(&self) -> u64 {
        self.cycles.iter().filter_map(|w| w.last().copied()).max().unwrap_or(0)
    }

    /// Number of warps.
    pub fn warps(&self) -> usize {
        self.cycles.len()
    }

    /// All issues, warp by warp, in instruction order.
    pub fn issues(&self, kernel: &Kernel) -> Vec<Issue> {
        self.issues_of_units(kernel.units())
    }

    /// [`Schedule::issues`] for instructions of the given units (e.g. the phases of a
    /// kernel with barriers, one after the other).
    pub fn issues_of_units(&self, units: &[Unit]) -> Vec<Issue> {
        let mut out = Vec::new();
        for (w, row) in self.cycles.iter().enumerate() {
            for (i, &t) in row.iter().enumerate() {
                out.push(Issue { warp: w + 1, instruction: i + 1, unit: units[i], cycle: t });
            }
        }
        out
    }

    /// Relabels warps so that the warp finishing last is the last one and the others
    /// are ordered by the cycle of their first instruction (the ILP's symmetry breaking).
    pub fn canonical(&self) -> Schedule {
        let mut rows = self.cycles.clone();
        if let Some(last) = (0..rows.len()).max_by_key(|&w| (rows[w].last().copied().unwrap_or(0), usize::MAX - w)) {
            let l = rows.remove(last);
            rows.sort_by_key(|r| r.first().copied().unwrap_or(0));
            rows.push(l);
        }
        Schedule { cycles: rows }
    }

    /// A cycle-by-warp chart like the paper's Fig. 2: one row per warp, one column per
    /// cycle, `L`/`C` where the warp issues, `.` where it does not.
    pub fn chart(&self, kernel: &Kernel) -> String {
        self.chart_with(kernel.units(), None)
    }

    /// [`Schedule::chart`] for instructions of the given `units` (all phases in order),
    /// and with `latencies[w][i]` (warp `w`'s instruction `i`) a `-` in every cycle a warp
    /// waits for that instruction's result; the chart runs to the last result.
    pub fn chart_with(&self, units: &[Unit], latencies: Option<&[Vec<u32>]>) -> String {
        let lat = |w: usize, i: usize| latencies.map_or(1, |l| l[w][i] as usize);
        let ends = self.cycles.iter().enumerate().filter_map(|(w, r)| r.last().map(|&t| t as usize + lat(w, r.len() - 1) - 1));
        let t_max = ends.max().unwrap_or(0);
        let width = t_max.to_string().len().max(1);
        let label = format!("warp {}", self.warps()).len();
        let mut s = format!("{:label$} ", "cycle");
        for t in 1..=t_max {
            s.push_str(&format!("{:>width$}", if t % 5 == 0 || t == 1 { t.to_string() } else { String::new() }));
        }
        s.push('\n');
        for (w, row) in self.cycles.iter().enumerate() {
            let mut line = vec!['.'; t_max];
            for (i, &t) in row.iter().enumerate() {
                let t = t as usize - 1;
                line[t] = units[i].letter();
                line[t + 1..t + lat(w, i)].fill('-');
            }
            s.push_str(&format!("{:label$} ", format!("warp {}", w + 1)));
            for ch in line {
                s.push_str(&format!("{ch:>width$}"));
            }
            s.push('\n');
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chart_of_fig2() {
        let k = Kernel::parse("LLC").unwrap();
        let s = Schedule { cycles: vec![vec![1, 5, 6], vec![2, 6, 7], vec![3, 7, 8], vec![4, 8, 9]] };
        assert_eq!(s.makespan(), 9);
        let chart = s.chart(&k);
        assert!(chart.contains("warp 1 L...LC..."), "{chart}");
        assert!(chart.contains("warp 4 ...L...LC"), "{chart}");
    }

    #[test]
    fn canonical_puts_last_finisher_last() {
        let s = Schedule { cycles: vec![vec![4, 8, 9], vec![2, 6, 7], vec![1, 5, 6], vec![3, 7, 8]] };
        let c = s.canonical();
        assert_eq!(c.cycles.last().unwrap(), &vec![4, 8, 9]);
        assert_eq!(c.cycles[0], vec![1, 5, 6]);
    }
}
