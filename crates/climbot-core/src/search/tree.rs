//! The search below a root candidate: one information-set tree per candidate
//! (single-observer ISMCTS after Whitehouse, Powley and Cowling), grown by the playouts
//! the race gives that candidate.
//!
//! A node is a history of actions after the candidate, the same node in every deal;
//! an edge is an action of the seat to act there. Because the hidden hands differ
//! between deals, an action is legal in some deals and not in others: each edge counts
//! the visits in which it was *available*, and the exploration term uses that count
//! (the subset-armed bandit of ISMCTS). Every seat chooses by its own outcome, so the
//! other seats play to win rather than by the playout rule, and more playouts mean a
//! deeper and better-informed look ahead: the work a larger budget buys.
//!
//! A node is expanded only after [`TreeSettings::expand_after`] playouts have passed
//! through it, and an edge's prior favours the playout policy's own action (PUCT), so
//! with few playouts the search is exactly the racing over playouts it refines, and
//! the tree takes over only where it has the samples to do better.

use crate::game::{Game, Simulation};
use rand_chacha::ChaCha8Rng;

use super::Playout;

/// How the tree below each candidate grows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TreeSettings {
    /// Playouts through a node before its actions get edges of their own; 0 keeps no
    /// tree (every playout follows the playout policy from the candidate on).
    pub expand_after: u32,
    /// The weight of the exploration term (PUCT's constant).
    pub exploration: f64,
    /// The prior probability mass on the playout policy's action; the rest is shared
    /// evenly by all the legal actions.
    pub prior: f64,
    /// Most nodes per tree, a bound on memory; a full tree stops growing.
    pub max_nodes: usize,
}

impl TreeSettings {
    /// The served settings.
    pub const STANDARD: TreeSettings = TreeSettings {
        expand_after: 16,
        exploration: 1.0,
        prior: 0.5,
        max_nodes: 1 << 15,
    };
    /// No tree: every playout follows the playout policy from the candidate on.
    pub const NONE: TreeSettings = TreeSettings {
        expand_after: 0,
        ..TreeSettings::STANDARD
    };
}

impl Default for TreeSettings {
    fn default() -> Self {
        TreeSettings::STANDARD
    }
}

const NO_CHILD: u32 = u32::MAX;

/// An action of the seat to act at a node, with its statistics.
#[derive(Clone, Debug)]
struct Edge<D> {
    action: D,
    /// Playouts that took this edge.
    visits: u32,
    /// Sum of the acting seat's oriented outcomes (higher is better) over them.
    total: f64,
    /// Expanded visits to the node in which this action was legal.
    available: u32,
    /// The node this edge leads to, or [`NO_CHILD`] before it is taken once.
    child: u32,
}

#[derive(Clone, Debug, Default)]
struct Node<D> {
    visits: u32,
    edges: Vec<Edge<D>>,
}

/// The tree below one root candidate.
#[derive(Debug)]
pub(super) struct Tree<D> {
    nodes: Vec<Node<D>>,
}

/// Scratch space shared by the trees of one search.
pub(super) struct Scratch<D> {
    legal: Vec<D>,
    buffer: Vec<D>,
    path: Vec<(u32, u32, usize)>,
    /// The smallest and largest oriented outcome seen, to scale values to `[0, 1]`.
    low: f64,
    high: f64,
}

impl<D> Scratch<D> {
    pub(super) fn new() -> Self {
        Scratch {
            legal: Vec::with_capacity(64),
            buffer: Vec::with_capacity(64),
            path: Vec::with_capacity(64),
            low: f64::INFINITY,
            high: f64::NEG_INFINITY,
        }
    }
}

impl<D: Copy + Eq> Tree<D> {
    pub(super) fn new() -> Self {
        Tree {
            nodes: vec![Node {
                visits: 0,
                edges: Vec::new(),
            }],
        }
    }

    /// Plays `position` (the candidate already applied) to the end of the hand: down
    /// the tree while its nodes are expanded, then by the playout policy. Updates the
    /// statistics along the way and leaves the final position in `position`.
    pub(super) fn playout<G>(
        &mut self,
        position: &mut G::Position,
        settings: &TreeSettings,
        max_actions: u32,
        playout: &Playout<'_, G>,
        rng: &mut ChaCha8Rng,
        scratch: &mut Scratch<D>,
    ) where
        G: Simulation + Game<Decision = D>,
    {
        let sign = if G::HIGHER_IS_BETTER { 1.0 } else { -1.0 };
        scratch.path.clear();
        let mut node = 0u32;
        let mut actions = 0;
        while let Some(seat) = G::to_act(position) {
            if actions >= max_actions {
                break;
            }
            let expanded = settings.expand_after > 0
                && self.nodes[node as usize].visits >= settings.expand_after;
            if !expanded {
                break;
            }
            G::legal_actions(position, &mut scratch.legal);
            let preferred = playout(position, rng, &mut scratch.buffer);
            let edge = self.select(node, settings, preferred, scratch);
            scratch.path.push((node, edge, seat));
            let action = self.nodes[node as usize].edges[edge as usize].action;
            G::apply(position, action);
            actions += 1;
            node = self.child(node, edge, settings.max_nodes);
            if node == NO_CHILD {
                break;
            }
        }
        if node != NO_CHILD {
            self.nodes[node as usize].visits += 1;
        }
        while G::to_act(position).is_some() && actions < max_actions {
            let action = playout(position, rng, &mut scratch.buffer);
            G::apply(position, action);
            actions += 1;
        }
        for &(node, edge, seat) in &scratch.path {
            let value = sign * G::outcome(position, seat);
            scratch.low = scratch.low.min(value);
            scratch.high = scratch.high.max(value);
            let node = &mut self.nodes[node as usize];
            node.visits += 1;
            let edge = &mut node.edges[edge as usize];
            edge.visits += 1;
            edge.total += value;
        }
    }

    /// The PUCT choice among the actions legal here (`scratch.legal`), creating edges
    /// for actions met for the first time and counting their availability.
    fn select(
        &mut self,
        node: u32,
        settings: &TreeSettings,
        preferred: D,
        scratch: &mut Scratch<D>,
    ) -> u32 {
        let (low, span) = if scratch.high > scratch.low {
            (scratch.low, scratch.high - scratch.low)
        } else {
            (0.0, 1.0)
        };
        let node = &mut self.nodes[node as usize];
        let share = (1.0 - settings.prior) / scratch.legal.len() as f64;
        // The node's own mean (first-play urgency): an untried action is valued at it.
        let (sum, n) = node
            .edges
            .iter()
            .fold((0.0, 0u32), |(s, n), e| (s + e.total, n + e.visits));
        let parent = if n > 0 {
            ((sum / f64::from(n)) - low) / span
        } else {
            0.5
        };
        let mut best = (f64::NEG_INFINITY, 0u32);
        for &action in &scratch.legal {
            let index = match node.edges.iter().position(|e| e.action == action) {
                Some(i) => i,
                None => {
                    node.edges.push(Edge {
                        action,
                        visits: 0,
                        total: 0.0,
                        available: 0,
                        child: NO_CHILD,
                    });
                    node.edges.len() - 1
                }
            };
            let edge = &mut node.edges[index];
            edge.available += 1;
            let q = if edge.visits > 0 {
                ((edge.total / f64::from(edge.visits)) - low) / span
            } else {
                parent
            };
            let prior = share
                + if action == preferred {
                    settings.prior
                } else {
                    0.0
                };
            let u = settings.exploration * prior * f64::from(edge.available).sqrt()
                / (1.0 + f64::from(edge.visits));
            // Ties go to the earlier action: legal actions come in a fixed order.
            if q + u > best.0 {
                best = (q + u, index as u32);
            }
        }
        best.1
    }

    /// The node under `edge`, created on first use unless the tree is full.
    fn child(&mut self, node: u32, edge: u32, max_nodes: usize) -> u32 {
        let child = self.nodes[node as usize].edges[edge as usize].child;
        if child != NO_CHILD || self.nodes.len() >= max_nodes {
            return child;
        }
        let index = self.nodes.len() as u32;
        self.nodes.push(Node {
            visits: 0,
            edges: Vec::new(),
        });
        self.nodes[node as usize].edges[edge as usize].child = index;
        index
    }
}
