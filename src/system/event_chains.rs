//! An AMALTHEA model's event chains as cause-effect chains of tasks.
//!
//! An event chain (`constraintsModel/eventChains`) has a stimulus and a response event
//! and, nested in `items` (or, in older models, `segments`), sub-chains
//! (`EventChainContainer` holding an `eventChain`) with their own stimulus and response.
//! Its tasks are the tasks of those events in document order (the chain's stimulus,
//! each sub-chain's stimulus, its own items, its response, then the chain's response),
//! with repeats of one task in a row merged. An event names a task directly
//! (`ProcessEvent`: its `entity`) or through a runnable (`RunnableEvent`: its `process`
//! if given, else the one task that calls the runnable). A chain with any other event
//! (label, channel, ...), a reference to another chain, or a runnable that several tasks
//! call is left out with a warning naming it and why.
//!
//! Requirements: an `EventChainLatencyConstraint` on the chain with `type = "Reaction"`
//! (or no type) gives its `maximum` as the chain's requirement.

use super::model::{time_of, Chain, Ps, System};
use super::xml::{refs, xsi_type};
use crate::error::InputError;
use roxmltree::Node;
use std::collections::BTreeMap;

/// The task of each event of `event_model` that names one, or why it does not.
pub fn event_tasks(event_model: Option<Node>, sys: &System) -> BTreeMap<String, Result<String, String>> {
    let mut out = BTreeMap::new();
    let Some(m) = event_model else { return out };
    for e in m.children().filter(|c| c.has_tag_name("events")) {
        let name = e.attribute("name").unwrap_or("").to_string();
        let entity = refs(e.attribute("entity").unwrap_or("")).pop();
        let task = match (xsi_type(e), entity) {
            ("ProcessEvent", Some(t)) => Ok(t),
            ("RunnableEvent", Some(r)) => match refs(e.attribute("process").unwrap_or("")).pop() {
                Some(p) => Ok(p),
                None => {
                    let callers: Vec<&str> =
                        sys.tasks.iter().filter(|t| t.pre.contains(&r) || t.post.contains(&r)).map(|t| t.name.as_str()).collect();
                    match callers.as_slice() {
                        [one] => Ok(one.to_string()),
                        [] => Err(format!("runnable {r} of event {name} is called by no task")),
                        _ => Err(format!("runnable {r} of event {name} is called by several tasks ({})", callers.join(", "))),
                    }
                }
            },
            (kind, _) => Err(format!("event {name} is a {kind}, not a process or runnable event")),
        };
        out.insert(name, task);
    }
    out
}

/// The chains of `constraints`, and a warning for each left out.
pub fn read(constraints: Node, events: &BTreeMap<String, Result<String, String>>) -> Result<(Vec<Chain>, Vec<String>), InputError> {
    let mut chains = Vec::new();
    let mut warnings = Vec::new();
    let requirements = reaction_limits(constraints)?;
    for c in constraints.children().filter(|x| x.has_tag_name("eventChains")) {
        let name = c.attribute("name").unwrap_or("(unnamed)").to_string();
        let mut names = Vec::new();
        match collect(c, events, &mut names) {
            Ok(()) => {
                let mut tasks: Vec<String> = Vec::new();
                for n in names {
                    if tasks.last() != Some(&n) {
                        tasks.push(n);
                    }
                }
                chains.push(Chain { requirement: requirements.get(&name).copied(), name, tasks });
            }
            Err(why) => warnings.push(format!("event chain {name} left out: {why}")),
        }
    }
    Ok((chains, warnings))
}

/// The tasks of `chain`'s events, in document order.
fn collect(chain: Node, events: &BTreeMap<String, Result<String, String>>, out: &mut Vec<String>) -> Result<(), String> {
    let task = |attr: &str| -> Result<Option<String>, String> {
        match refs(chain.attribute(attr).unwrap_or("")).pop() {
            None => Ok(None),
            Some(e) => events.get(&e).cloned().unwrap_or_else(|| Err(format!("event {e} is not defined"))).map(Some),
        }
    };
    out.extend(task("stimulus")?);
    for item in chain.children().filter(|c| c.has_tag_name("items") || c.has_tag_name("segments") || c.has_tag_name("strands")) {
        match xsi_type(item) {
            "EventChainContainer" => {
                let sub = item.children().find(|c| c.has_tag_name("eventChain")).ok_or("a container without a chain")?;
                collect(sub, events, out)?;
            }
            other => return Err(format!("a {other} item (references to other chains are not followed)")),
        }
    }
    out.extend(task("response")?);
    Ok(())
}

/// Chain name -> required maximum reaction.
fn reaction_limits(constraints: Node) -> Result<BTreeMap<String, Ps>, InputError> {
    let mut out = BTreeMap::new();
    for t in constraints.children().filter(|x| x.has_tag_name("timingConstraints") && xsi_type(*x) == "EventChainLatencyConstraint") {
        // `type` without a namespace (roxmltree's `attribute("type")` also finds `xsi:type`).
        let latency_type = t.attributes().find(|a| a.name() == "type" && a.namespace().is_none()).map(|a| a.value());
        if latency_type.is_some_and(|ty| ty != "Reaction") {
            continue;
        }
        let (Some(scope), Some(max)) = (refs(t.attribute("scope").unwrap_or("")).pop(), t.children().find(|m| m.has_tag_name("maximum")))
        else {
            continue;
        };
        let field = format!("constraintsModel.timingConstraints.{}", t.attribute("name").unwrap_or(&scope));
        let value = time_of(max.attribute("value").unwrap_or(""), max.attribute("unit").unwrap_or("ps"), &field)?;
        out.insert(scope, value);
    }
    Ok(out)
}
