//! A streams group's topology as the coordinator holds it (KIP-1071): its
//! subtopologies and the topics each reads, and so the partitions a
//! member's tasks read. Decoded from `StreamsGroupDescribe` in `streams`.

use super::member::{Assignment, TaskMap};

/// One subtopology of a streams application.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Subtopology {
    /// Its id (`0`, `1`, … as Kafka Streams numbers them).
    pub id: String,
    /// Input topics named by the application.
    pub source_topics: Vec<String>,
    /// Internal repartition topics it reads (written by another subtopology).
    pub repartition_source_topics: Vec<String>,
    /// Internal repartition topics it writes.
    pub repartition_sink_topics: Vec<String>,
    /// Changelog topics of its state stores.
    pub changelog_topics: Vec<String>,
}

impl Subtopology {
    /// Every topic a task of this subtopology reads a partition of.
    pub fn input_topics(&self) -> impl Iterator<Item = &String> {
        self.source_topics
            .iter()
            .chain(&self.repartition_source_topics)
    }
}

/// A streams group's topology as the coordinator holds it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Topology {
    /// The topology epoch (bumped when the application's topology changes).
    pub epoch: i32,
    /// Its subtopologies, sorted by id; empty when the broker has none yet.
    pub subtopologies: Vec<Subtopology>,
}

impl Topology {
    /// The partitions a set of tasks reads: for each task, that partition of
    /// each input topic of its subtopology.
    pub fn partitions_of(&self, tasks: &TaskMap) -> Assignment {
        Assignment::from_pairs(tasks.iter().flat_map(|(sub, partitions)| {
            self.subtopologies
                .iter()
                .filter(move |s| s.id == *sub)
                .flat_map(Subtopology::input_topics)
                .map(move |topic| (topic.clone(), partitions.clone()))
        }))
    }

    /// Every input topic of every subtopology, sorted and de-duplicated.
    pub fn input_topics(&self) -> Vec<String> {
        let mut topics: Vec<String> = self
            .subtopologies
            .iter()
            .flat_map(Subtopology::input_topics)
            .cloned()
            .collect();
        topics.sort();
        topics.dedup();
        topics
    }
}
