//! Reads an AMALTHEA model (APP4MC's `.amxmi`, XMI; 0.9.8 and later, whose tasks and
//! runnables have an `activityGraph`) into a [`System`].
//!
//! What is read: processing units (their definition, frequency domain and memory access
//! latencies), tasks (periodic stimuli, the runnable calls, inter-process triggers, wait
//! and clear events), runnables (ticks per unit definition as constants or
//! lower/upper statistics, label accesses), labels and their sizes, inter-process
//! stimuli, fixed-priority schedulers, the task allocations (affinity and priority), and
//! response-time requirements. Everything else is named in a warning (grouped by where
//! it is in the model), never silently dropped; constructs the analysis cannot take
//! (cooperative tasks, other schedulers for CPU tasks, other activity items) are errors
//! naming the element.

use super::model::{bytes_of, frequency_of, time_of, time_text, Offload, Runnable, Task, TickRange, Unit, Wait};
use super::model::{Frequency, Interconnect, Ps, System};
use super::xml::{refs, xsi_type};
use crate::error::InputError;
use roxmltree::{Document, Node, NodeId};
use std::collections::{BTreeMap, HashSet};

/// Reads the model in `text` (from `origin`, for messages).
pub fn read(text: &str, origin: &str) -> Result<System, InputError> {
    let doc = Document::parse(text).map_err(|e| InputError::new("file", origin, format!("not XML: {e}")))?;
    let root = doc.root_element();
    let ns = root.tag_name().namespace().unwrap_or("");
    if root.tag_name().name() != "Amalthea" || !ns.starts_with("http://app4mc.eclipse.org/amalthea/") {
        return Err(InputError::new("file", origin, "not an AMALTHEA model (the root is not am:Amalthea)"));
    }
    let mut r = Reader { used: HashSet::new(), whole: HashSet::new(), sys: System::default() };
    r.used.insert(root.id());
    let part = |name: &str| root.children().find(|c| c.has_tag_name(name));
    let hw = part("hwModel").ok_or_else(|| InputError::new("hwModel", "", "the model has no hardware model"))?;
    let sw = part("swModel").ok_or_else(|| InputError::new("swModel", "", "the model has no software model"))?;
    r.hardware(hw)?;
    let stimuli = part("stimuliModel").map(|s| r.stimuli(s)).transpose()?.unwrap_or_default();
    r.software(sw, &stimuli)?;
    r.sys.stimuli = stimuli
        .periodic
        .iter()
        .map(|(n, p)| (n.clone(), Some(*p)))
        .chain(stimuli.inter_process.iter().map(|n| (n.clone(), None)))
        .collect();
    let schedulers = part("osModel").map(|o| r.schedulers(o)).transpose()?.unwrap_or_default();
    if let Some(m) = part("mappingModel") {
        r.mapping(m, &schedulers)?;
    }
    let event_model = part("eventModel");
    let events = super::event_chains::event_tasks(event_model, &r.sys);
    if let Some(e) = event_model {
        r.take_all(e);
    }
    if let Some(c) = part("constraintsModel") {
        r.constraints(c, &events)?;
    }
    r.warn_unread(root);
    Ok(r.sys)
}

/// The model's stimuli: periods of periodic ones, names of inter-process ones.
/// The narrowest `bitWidth` of `m`'s ports (of `kind`, when given), if any.
fn narrowest_port(m: Node, kind: Option<&str>) -> Option<u64> {
    m.children()
        .filter(|p| p.has_tag_name("ports") && kind.is_none_or(|k| p.attribute("portType") == Some(k)))
        .filter_map(|p| p.attribute("bitWidth")?.parse().ok())
        .filter(|&b: &u64| b >= 8)
        .min()
}

#[derive(Default)]
struct Stimuli {
    periodic: BTreeMap<String, Ps>,
    inter_process: HashSet<String>,
    other: BTreeMap<String, String>,
}

struct Reader {
    used: HashSet<NodeId>,
    whole: HashSet<NodeId>,
    sys: System,
}

impl Reader {
    fn take(&mut self, n: Node) {
        self.used.insert(n.id());
    }

    fn take_all(&mut self, n: Node) {
        self.used.insert(n.id());
        self.whole.insert(n.id());
    }

    fn attr<'a>(&self, n: Node<'a, '_>, name: &str, field: &str) -> Result<&'a str, InputError> {
        n.attribute(name).ok_or_else(|| InputError::new(field, "", format!("the {} element has no {name} attribute", n.tag_name().name())))
    }

    fn hardware(&mut self, hw: Node) -> Result<(), InputError> {
        self.take(hw);
        let mut kinds: BTreeMap<String, bool> = BTreeMap::new();
        let mut domains: BTreeMap<String, Frequency> = BTreeMap::new();
        let mut slow_memory = false;
        for c in hw.children().filter(Node::is_element) {
            match (c.tag_name().name(), xsi_type(c)) {
                ("definitions", "ProcessingUnitDefinition") => {
                    self.take_all(c);
                    let name = self.attr(c, "name", "hwModel.definitions")?.to_string();
                    kinds.insert(name, c.attribute("puType") == Some("GPU"));
                }
                ("definitions", "ConnectionHandlerDefinition") => {
                    self.take_all(c);
                    let name = self.attr(c, "name", "hwModel.definitions")?.to_string();
                    let field = format!("hwModel.definitions.{name}.maxConcurrentTransfers");
                    let max = c.attribute("maxConcurrentTransfers").unwrap_or("1");
                    let max_concurrent_transfers = max.parse().map_err(|_| InputError::new(&field, max, "must be a whole number"))?;
                    let mut policy = c.attribute("policy").unwrap_or("(none)").to_string();
                    if let Some(before) = &self.sys.interconnect {
                        // Which unit goes through which is not read: none is modelled.
                        policy = format!("(one of several: {} and {name})", before.name);
                    }
                    let mut max_burst = c.attribute("maxBurstSize").and_then(|b| b.parse().ok()).filter(|&b: &u64| b > 0);
                    // Latencies or a data rate of the interconnect itself are not modelled:
                    // a grant is then taken to hold it for the unit's whole access latency.
                    if max_burst.is_some() && c.children().any(|x| x.is_element()) {
                        max_burst = None;
                        self.sys.warnings.push(format!(
                            "interconnect {name}: its own latencies or data rate are not modelled; a grant is taken to hold it for a unit's whole access latency"
                        ));
                    }
                    self.sys.interconnect =
                        Some(Interconnect { name, policy, max_concurrent_transfers, max_burst, frequency: None, port_bits: None });
                }
                ("definitions", "MemoryDefinition") => {
                    // A memory that takes time to answer holds the interconnect meanwhile
                    // (transfers are not split): bursts alone would be too short a hold.
                    let latency = c.children().find(|x| x.has_tag_name("accessLatency")).and_then(|l| l.attribute("value"));
                    if latency.is_some_and(|v| v.trim() != "0") {
                        slow_memory = true;
                    }
                }
                ("domains", "FrequencyDomain") => {
                    let name = self.attr(c, "name", "hwModel.domains")?.to_string();
                    let field = format!("hwModel.domains.{name}");
                    let v = c
                        .children()
                        .find(|d| d.has_tag_name("defaultValue"))
                        .ok_or_else(|| InputError::new(&field, "", "no defaultValue"))?;
                    self.take_all(c);
                    domains.insert(name, frequency_of(self.attr(v, "value", &field)?, v.attribute("unit").unwrap_or("Hz"), &field)?);
                }
                _ => {}
            }
        }
        // Units refer to definitions and domains, which may come after them.
        for c in hw.children().filter(|c| c.has_tag_name("structures")) {
            self.structures(c, &kinds, &domains)?;
        }
        if let Some(i) = self.sys.interconnect.as_mut().filter(|i| slow_memory && i.max_burst.is_some()) {
            i.max_burst = None;
            self.sys.warnings.push(format!(
                "interconnect {}: the memory's access latency is not 0, so a grant is taken to hold it for a unit's whole access latency",
                i.name
            ));
        }
        Ok(())
    }

    fn structures(&mut self, s: Node, kinds: &BTreeMap<String, bool>, domains: &BTreeMap<String, Frequency>) -> Result<(), InputError> {
        self.take(s);
        for c in s.children().filter(Node::is_element) {
            match (c.tag_name().name(), xsi_type(c)) {
                ("structures", _) => self.structures(c, kinds, domains)?,
                ("modules", "ProcessingUnit") => {
                    let unit = self.unit(c, kinds, domains)?;
                    self.sys.units.push(unit);
                }
                ("modules", "ConnectionHandler") => {
                    self.take_all(c);
                    let domain = c.attribute("frequencyDomain").map(refs).and_then(|mut d| d.pop()).unwrap_or_default();
                    let port_bits = narrowest_port(c, None);
                    if let Some(i) = self.sys.interconnect.as_mut() {
                        i.frequency = domains.get(&domain).copied();
                        i.port_bits = port_bits;
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn unit(&mut self, m: Node, kinds: &BTreeMap<String, bool>, domains: &BTreeMap<String, Frequency>) -> Result<Unit, InputError> {
        self.take(m);
        let name = self.attr(m, "name", "hwModel.modules")?.to_string();
        let field = |f: &str| format!("hwModel.modules.{name}.{f}");
        let kind = refs(self.attr(m, "definition", &field("definition"))?).pop().unwrap_or_default();
        let gpu = *kinds.get(&kind).ok_or_else(|| InputError::new(field("definition"), &kind, "no such processing-unit definition"))?;
        let domain = refs(self.attr(m, "frequencyDomain", &field("frequencyDomain"))?).pop().unwrap_or_default();
        let frequency =
            *domains.get(&domain).ok_or_else(|| InputError::new(field("frequencyDomain"), &domain, "no such frequency domain"))?;
        let (mut read_latency, mut write_latency, mut paths) = (0, 0, 0);
        for a in m.children().filter(|c| c.has_tag_name("accessElements")) {
            self.take(a);
            paths += 1;
            for (tag, slot) in [("readLatency", &mut read_latency), ("writeLatency", &mut write_latency)] {
                if let Some(l) = a.children().find(|c| c.has_tag_name(tag)) {
                    self.take(l);
                    *slot = (*slot).max(latency(l, &field(tag))?);
                }
            }
        }
        if paths > 1 {
            self.sys.warnings.push(format!("unit {name}: {paths} memory access paths; the largest read and write latencies are used"));
        }
        let port_bits = narrowest_port(m, Some("initiator"));
        Ok(Unit { name, kind, gpu, frequency, read_latency, write_latency, contention: 0, port_bits })
    }

    fn stimuli(&mut self, s: Node) -> Result<Stimuli, InputError> {
        self.take(s);
        let mut out = Stimuli::default();
        for c in s.children().filter(|c| c.has_tag_name("stimuli")) {
            let name = self.attr(c, "name", "stimuliModel.stimuli")?.to_string();
            match xsi_type(c) {
                "PeriodicStimulus" => {
                    self.take(c);
                    let field = format!("stimuliModel.{name}.recurrence");
                    let r = c
                        .children()
                        .find(|x| x.has_tag_name("recurrence"))
                        .ok_or_else(|| InputError::new(&field, "", "a periodic stimulus needs a recurrence"))?;
                    self.take(r);
                    if let Some(j) = c.children().find(|x| x.has_tag_name("jitter")) {
                        return Err(InputError::new(
                            format!("stimuliModel.{name}.jitter"),
                            j.attribute("value").unwrap_or("?"),
                            "release jitter of a periodic stimulus is not modelled",
                        ));
                    }
                    let period = time_of(self.attr(r, "value", &field)?, r.attribute("unit").unwrap_or("ps"), &field)?;
                    out.periodic.insert(name, period);
                }
                "InterProcessStimulus" => {
                    self.take(c);
                    out.inter_process.insert(name);
                }
                other => {
                    out.other.insert(name, other.to_string());
                }
            }
        }
        Ok(out)
    }

    fn software(&mut self, sw: Node, stimuli: &Stimuli) -> Result<(), InputError> {
        self.take(sw);
        for c in sw.children().filter(Node::is_element) {
            match c.tag_name().name() {
                "labels" => {
                    let name = self.attr(c, "name", "swModel.labels")?.to_string();
                    let field = format!("swModel.labels.{name}.size");
                    let size = match c.children().find(|x| x.has_tag_name("size")) {
                        Some(s) => bytes_of(self.attr(s, "value", &field)?, s.attribute("unit").unwrap_or("B"), &field)?,
                        None => 0,
                    };
                    self.take_all(c);
                    self.sys.labels.insert(name, size);
                }
                "runnables" => {
                    let r = self.runnable(c)?;
                    self.sys.runnables.insert(r.name.clone(), r);
                }
                "events" => self.take_all(c),
                _ => {}
            }
        }
        let mut triggers: Vec<(usize, String)> = Vec::new();
        for c in sw.children().filter(|c| c.has_tag_name("tasks")) {
            let (task, stimulus) = self.task(c, stimuli)?;
            if let Some(s) = stimulus {
                triggers.push((self.sys.tasks.len(), s));
            }
            self.sys.tasks.push(task);
        }
        // Triggers name stimuli; the analysis names the started task.
        let started_by: Vec<(String, String)> = triggers.into_iter().map(|(i, s)| (self.sys.tasks[i].name.clone(), s)).collect();
        for t in &mut self.sys.tasks {
            if let Some(o) = &mut t.offload {
                let targets: Vec<&String> = started_by.iter().filter(|(_, s)| *s == o.target).map(|(n, _)| n).collect();
                match targets.as_slice() {
                    [one] => o.target = (*one).clone(),
                    [] => return Err(InputError::new(format!("tasks.{}.trigger", t.name), &o.target, "the stimulus starts no task")),
                    _ => {
                        return Err(InputError::new(
                            format!("tasks.{}.trigger", t.name),
                            &o.target,
                            "the stimulus starts several tasks; one is modelled",
                        ))
                    }
                }
            }
        }
        Ok(())
    }

    /// A task, and the inter-process stimulus that starts it (if that is how it starts).
    fn task(&mut self, t: Node, stimuli: &Stimuli) -> Result<(Task, Option<String>), InputError> {
        self.take(t);
        let name = self.attr(t, "name", "swModel.tasks")?.to_string();
        let field = |f: &str| format!("tasks.{name}.{f}");
        if let Some(p) = t.attribute("preemption").filter(|p| *p != "preemptive") {
            return Err(InputError::new(
                field("preemption"),
                p,
                "only preemptive tasks are modelled (cooperative and non-preemptive blocking are not)",
            ));
        }
        let mut task = Task { name: name.clone(), ..Task::default() };
        let mut started_by = None;
        let stims = refs(t.attribute("stimuli").unwrap_or(""));
        if stims.len() != 1 {
            return Err(InputError::new(field("stimuli"), stims.join(" "), "a task needs exactly one stimulus"));
        }
        let s = &stims[0];
        if let Some(&p) = stimuli.periodic.get(s) {
            task.period = Some(p);
        } else if stimuli.inter_process.contains(s) {
            started_by = Some(s.clone());
        } else {
            let kind = stimuli.other.get(s).map_or("undefined", String::as_str);
            return Err(InputError::new(
                field("stimuli"),
                s,
                format!("a {kind} stimulus; periodic and inter-process stimuli are modelled"),
            ));
        }
        let graph = t.children().find(|c| c.has_tag_name("activityGraph")).ok_or_else(|| {
            let old = t.children().any(|c| c.has_tag_name("callGraph"));
            let why = if old {
                "AMALTHEA before 0.9.8 (callGraph) is not read; save the model with APP4MC 0.9.8 or later"
            } else {
                "the task has no activity graph"
            };
            InputError::new(field("activityGraph"), "", why)
        })?;
        self.take(graph);
        self.task_items(graph, &mut task, &name)?;
        Ok((task, started_by))
    }

    fn task_items(&mut self, parent: Node, task: &mut Task, name: &str) -> Result<(), InputError> {
        for item in parent.children().filter(|c| c.has_tag_name("items")) {
            self.take(item);
            match xsi_type(item) {
                "Group" => self.task_items(item, task, name)?,
                "RunnableCall" => {
                    let r = refs(self.attr(item, "runnable", &format!("tasks.{name}.items"))?).pop().unwrap_or_default();
                    if task.offload.is_some() {
                        task.post.push(r)
                    } else {
                        task.pre.push(r)
                    }
                }
                "InterProcessTrigger" => {
                    if task.offload.is_some() {
                        return Err(InputError::new(
                            format!("tasks.{name}.items"),
                            "InterProcessTrigger",
                            "a second trigger in one task is not modelled",
                        ));
                    }
                    let s = refs(self.attr(item, "stimulus", &format!("tasks.{name}.items"))?).pop().unwrap_or_default();
                    task.offload = Some(Offload { target: s, wait: Wait::None });
                }
                "WaitEvent" => {
                    self.take_all(item);
                    let wait = match item.attribute("waitingBehaviour") {
                        Some("active") => Wait::Active,
                        Some("passive") => Wait::Passive,
                        other => {
                            return Err(InputError::new(
                                format!("tasks.{name}.WaitEvent"),
                                other.unwrap_or(""),
                                "waitingBehaviour must be active or passive",
                            ))
                        }
                    };
                    match &mut task.offload {
                        Some(o) if o.wait == Wait::None => o.wait = wait,
                        _ => {
                            return Err(InputError::new(
                                format!("tasks.{name}.WaitEvent"),
                                "",
                                "a wait is modelled only after the task's one trigger",
                            ))
                        }
                    }
                }
                "ClearEvent" | "SetEvent" => self.take_all(item),
                other => {
                    return Err(InputError::new(
                        format!("tasks.{name}.items"),
                        other,
                        "activity item not modelled (runnable calls, groups, one trigger with its wait, set and clear events are)",
                    ))
                }
            }
        }
        Ok(())
    }

    fn runnable(&mut self, n: Node) -> Result<Runnable, InputError> {
        self.take(n);
        let name = self.attr(n, "name", "swModel.runnables")?.to_string();
        let mut r = Runnable { name: name.clone(), ..Runnable::default() };
        if let Some(g) = n.children().find(|c| c.has_tag_name("activityGraph")) {
            self.take(g);
            self.runnable_items(g, &mut r)?;
        } else if n.children().any(|c| c.has_tag_name("runnableItems")) {
            return Err(InputError::new(
                format!("runnables.{name}"),
                "runnableItems",
                "AMALTHEA before 0.9.8 is not read; save the model with APP4MC 0.9.8 or later",
            ));
        }
        Ok(r)
    }

    fn runnable_items(&mut self, parent: Node, r: &mut Runnable) -> Result<(), InputError> {
        let name = r.name.clone();
        for item in parent.children().filter(|c| c.has_tag_name("items")) {
            self.take(item);
            match xsi_type(item) {
                "Group" => self.runnable_items(item, r)?,
                "LabelAccess" => {
                    self.take_all(item);
                    let label = refs(self.attr(item, "data", &format!("runnables.{name}.LabelAccess"))?).pop().unwrap_or_default();
                    match item.attribute("access") {
                        Some("read") => r.reads.push(label),
                        Some("write") => r.writes.push(label),
                        other => {
                            return Err(InputError::new(
                                format!("runnables.{name}.LabelAccess"),
                                other.unwrap_or(""),
                                "access must be read or write",
                            ))
                        }
                    }
                }
                "Ticks" => self.ticks(item, r)?,
                other => {
                    return Err(InputError::new(
                        format!("runnables.{name}.items"),
                        other,
                        "runnable item not modelled (ticks, label accesses and groups are)",
                    ))
                }
            }
        }
        Ok(())
    }

    fn ticks(&mut self, item: Node, r: &mut Runnable) -> Result<(), InputError> {
        self.take_all(item);
        let field = format!("runnables.{}.ticks", r.name);
        for c in item.children().filter(Node::is_element) {
            let (range, slot) = match c.tag_name().name() {
                "default" => (tick_range(c, &field)?, r.default_ticks.get_or_insert(TickRange { lower: 0, upper: 0 })),
                "extended" => {
                    let value = c
                        .children()
                        .find(|v| v.has_tag_name("value"))
                        .ok_or_else(|| InputError::new(&field, "", "an extended tick entry without a value"))?;
                    let key = refs(self.attr(c, "key", &field)?).pop().unwrap_or_default();
                    (tick_range(value, &field)?, r.ticks.entry(key).or_insert(TickRange { lower: 0, upper: 0 }))
                }
                other => return Err(InputError::new(&field, other, "unknown tick entry")),
            };
            slot.lower += range.lower;
            slot.upper += range.upper;
        }
        Ok(())
    }

    /// Scheduler name -> its algorithm's type, and the time slices it allows
    /// (`minimumTimeslice`, `maximumTimeslice`, if given).
    fn schedulers(&mut self, os: Node) -> Result<BTreeMap<String, (String, SliceLimits)>, InputError> {
        self.take(os);
        let mut out = BTreeMap::new();
        for o in os.children().filter(|c| c.has_tag_name("operatingSystems")) {
            self.take(o);
            for s in o.children().filter(|c| c.has_tag_name("taskSchedulers")) {
                self.take_all(s);
                let name = s.attribute("name").unwrap_or("").to_string();
                let algorithm = s.children().find(|a| a.has_tag_name("schedulingAlgorithm"));
                let algo = algorithm.map(xsi_type).unwrap_or("(none)");
                let mut limits: SliceLimits = (None, None);
                for p in algorithm.iter().flat_map(|a| a.children()).filter(|c| c.has_tag_name("parameterExtensions")) {
                    let (key, value) = (p.attribute("key").unwrap_or(""), p.attribute("value").unwrap_or(""));
                    let field = format!("osModel.taskSchedulers.{name}.{key}");
                    match key {
                        "minimumTimeslice" => limits.0 = Some(time_text(value, &field)?),
                        "maximumTimeslice" => limits.1 = Some(time_text(value, &field)?),
                        _ => {}
                    }
                }
                out.insert(name, (algo.to_string(), limits));
            }
        }
        Ok(out)
    }

    fn mapping(&mut self, m: Node, schedulers: &BTreeMap<String, (String, SliceLimits)>) -> Result<(), InputError> {
        self.take(m);
        for a in m.children().filter(|c| c.has_tag_name("taskAllocation")) {
            self.take(a);
            let task = refs(self.attr(a, "task", "mappingModel.taskAllocation")?).pop().unwrap_or_default();
            let field = format!("mappingModel.taskAllocation.{task}");
            let scheduler = refs(a.attribute("scheduler").unwrap_or("")).pop().unwrap_or_default();
            let affinity = refs(a.attribute("affinity").unwrap_or(""));
            let priority = a.children().find(|c| c.has_tag_name("schedulingParameters")).and_then(|p| {
                self.take(p);
                p.attribute("priority").map(|v| v.parse::<i64>().map_err(|_| v.to_string()))
            });
            let mut time_slice = None;
            for p in a.children().filter(|c| c.has_tag_name("parameterExtensions")) {
                self.take(p);
                let (key, value) = (p.attribute("key").unwrap_or("?"), p.attribute("value").unwrap_or("?"));
                if key.starts_with("TimeSlice") {
                    time_slice = Some(time_text(value, &format!("{field}.{key}"))?);
                } else {
                    self.sys.warnings.push(format!("task {task}: parameter {key} = {value} is not modelled"));
                }
            }
            let Some(t) = self.sys.tasks.iter_mut().find(|t| t.name == task) else {
                return Err(InputError::new(&field, &task, "allocates a task the model does not define"));
            };
            t.time_slice = time_slice;
            t.priority = priority.transpose().map_err(|v| InputError::new(format!("{field}.priority"), v, "must be an integer"))?;
            match affinity.as_slice() {
                [] => {}
                [one] => t.unit = Some(one.clone()),
                [first, ..] => {
                    t.unit = Some(first.clone());
                    let rest = format!(
                        "{} (several units); analysed as pinned to {first} (partitioned scheduling; the map option chooses another)",
                        affinity.join(" ")
                    );
                    self.sys.warnings.push(super::model::affinity_warning(&task, &rest));
                }
            }
            let algo = schedulers.get(&scheduler).map_or("(undefined)", |(a, _)| a.as_str());
            if let (Some(q), Some(&(_, (lo, hi)))) = (t.time_slice, schedulers.get(&scheduler)) {
                let clamped = q.max(lo.unwrap_or(Ps::ZERO)).min(hi.unwrap_or(q));
                if clamped != q {
                    t.time_slice = Some(clamped);
                    self.sys.warnings.push(format!(
                        "task {task}: time slice {} ms outside its scheduler {scheduler}'s limits; {} ms used",
                        super::model::ms(q),
                        super::model::ms(clamped)
                    ));
                }
            }
            // A unit the model lacks (a GPU task allocated to a GPU the hardware model does
            // not have) is named by `System::check`, not blamed on the scheduler.
            let unit = t.unit.as_deref().and_then(|u| self.sys.units.iter().find(|x| x.name == u));
            if unit.is_some_and(|u| !u.gpu) && algo != "FixedPriorityPreemptive" {
                return Err(InputError::new(
                    format!("{field}.scheduler"),
                    format!("{scheduler} ({algo})"),
                    "CPU tasks are analysed under fixed-priority preemptive scheduling only",
                ));
            }
        }
        for a in m.children().filter(|c| c.has_tag_name("schedulerAllocation")) {
            self.take(a);
        }
        Ok(())
    }

    fn constraints(&mut self, c: Node, events: &BTreeMap<String, Result<String, String>>) -> Result<(), InputError> {
        self.take(c);
        for r in c.children().filter(|x| x.has_tag_name("requirements") && xsi_type(*x) == "ProcessRequirement") {
            let Some(limit) = r.children().find(|l| l.has_tag_name("limit")) else { continue };
            let response_upper = limit.attribute("metric") == Some("ResponseTime") && limit.attribute("limitType") == Some("UpperLimit");
            let Some(value) = limit.children().find(|v| v.has_tag_name("limitValue")).filter(|_| response_upper) else { continue };
            let task = refs(r.attribute("process").unwrap_or("")).pop().unwrap_or_default();
            let field = format!("constraintsModel.requirements.{}", r.attribute("name").unwrap_or(&task));
            let deadline = time_of(self.attr(value, "value", &field)?, value.attribute("unit").unwrap_or("ps"), &field)?;
            let t = self
                .sys
                .tasks
                .iter_mut()
                .find(|t| t.name == task)
                .ok_or_else(|| InputError::new(&field, &task, "names no task of the model"))?;
            t.deadline = Some(t.deadline.map_or(deadline, |d| d.min(deadline)));
            self.take_all(r);
        }
        let (chains, warnings) = super::event_chains::read(c, events)?;
        self.sys.chains.extend(chains);
        self.sys.warnings.extend(warnings);
        for x in c.children().filter(|x| {
            x.has_tag_name("eventChains") || (x.has_tag_name("timingConstraints") && xsi_type(*x) == "EventChainLatencyConstraint")
        }) {
            self.take_all(x);
        }
        Ok(())
    }

    /// One warning listing what was not read, by where it is in the model.
    fn warn_unread(&mut self, root: Node) {
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        let mut stack: Vec<(Node, String)> = root.children().filter(Node::is_element).map(|c| (c, String::new())).collect();
        while let Some((n, path)) = stack.pop() {
            let ty = xsi_type(n);
            let here = format!("{path}{}{}", n.tag_name().name(), if ty.is_empty() { String::new() } else { format!("({ty})") });
            if !self.used.contains(&n.id()) {
                *counts.entry(here).or_default() += 1;
                continue;
            }
            if !self.whole.contains(&n.id()) {
                stack.extend(n.children().filter(Node::is_element).map(|c| (c, format!("{here}/"))));
            }
        }
        if !counts.is_empty() {
            let list: Vec<String> = counts.iter().map(|(p, n)| if *n > 1 { format!("{p} x{n}") } else { p.clone() }).collect();
            self.sys.warnings.push(format!("not modelled (read and left out): {}", list.join(", ")));
        }
    }
}

/// The time slices a scheduler allows: the least and the most, if given.
type SliceLimits = (Option<Ps>, Option<Ps>);

/// A latency in cycles: a constant, or the upper bound of a distribution.
fn latency(n: Node, field: &str) -> Result<u64, InputError> {
    Ok(tick_range(n, field)?.upper)
}

/// A discrete value: a constant (`value`) or one with `lowerBound` and `upperBound`.
fn tick_range(n: Node, field: &str) -> Result<TickRange, InputError> {
    let num = |a: &str| -> Result<Option<u64>, InputError> {
        n.attribute(a)
            .map(|v| v.trim().parse::<u64>().map_err(|_| InputError::new(field, v, "must be a non-negative integer number of cycles")))
            .transpose()
    };
    match (num("value")?, num("lowerBound")?, num("upperBound")?) {
        (Some(v), _, _) => Ok(TickRange { lower: v, upper: v }),
        (None, Some(lower), Some(upper)) => Ok(TickRange { lower, upper }),
        _ => Err(InputError::new(field, xsi_type(n), "a value needs `value`, or `lowerBound` and `upperBound`")),
    }
}
