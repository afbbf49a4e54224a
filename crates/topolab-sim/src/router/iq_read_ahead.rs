//! Reading an input-queued router's state ahead of its turn (see `crate::read_ahead`): whole
//! arrays, or only what its work lists point to.

use super::IqState;

impl IqState {
    /// Brings this router's VC records, buffered flits, work lists and queues into the cache
    /// ahead of its turn, whole arrays (see `crate::read_ahead`; `ReadAhead::Whole`).
    pub fn read_ahead_whole(&self) {
        use crate::read_ahead::{deque, slice};
        slice(&self.flits);
        slice(&self.iv);
        slice(&self.ov);
        slice(&self.op_used);
        slice(&self.active_list);
        slice(&self.vca_list);
        slice(&self.next);
        slice(&self.oq_head);
        slice(&self.oq_tail);
        slice(&self.oq_len);
        slice(&self.sw_in);
        self.vc_out.read_ahead();
        self.sw_out.read_ahead();
        deque(&self.credit_q);
        deque(&self.pend_credits);
        deque(&self.xbar);
        slice(&self.leaving);
        slice(&self.crossing);
    }

    /// Brings the state this router's turn will touch into the cache ahead of it (see
    /// `crate::read_ahead`): the records of the VCs on its work lists and what each of them
    /// reads (its output VCs, its input port's switch scratch), the flits in the crossbar and
    /// the slab slots the next arrivals take. Only what is listed, not whole arrays: on a
    /// radix-200 router of a million-endpoint network the VC records alone are 400 cache
    /// lines, of which a cycle touches a few dozen (`ReadAhead::Listed`).
    pub fn read_ahead_listed(&self) {
        use crate::read_ahead::{deque, slice, value};
        let (v, by_v) = (self.vcs, self.by_v);
        slice(&self.active_list);
        slice(&self.vca_list);
        slice(&self.op_used);
        slice(&self.sw_in);
        for &iv in &self.active_list {
            let i = &self.iv[iv as usize];
            if let Some(o) = self.ov.get(i.ov as usize) {
                value(o);
                self.sw_out.read_ahead_output(by_v.quot(i.ov));
            }
            value(&self.sw_in[by_v.quot(iv) as usize]);
        }
        for &iv in &self.vca_list {
            let i = &self.iv[iv as usize];
            let base = i.port as u32 * v;
            let range = (base + i.vc_lo as u32) as usize..=(base + i.vc_hi as u32) as usize;
            if let Some(ovs) = self.ov.get(range.clone()) {
                slice(ovs);
                self.vc_out.read_ahead_output(*range.start() as u32);
            }
        }
        for &(_, ov) in &self.pend_credits {
            value(&self.ov[ov as usize]);
        }
        for x in self.xbar.iter().chain(&self.leaving).chain(&self.crossing) {
            value(&self.flits[x.slot as usize]);
        }
        for &slot in self.free.iter().rev().take(8) {
            value(&self.flits[slot as usize]);
            value(&self.next[slot as usize]);
        }
        for &p in &self.oq_ports {
            value(&self.oq_head[p as usize]);
        }
        deque(&self.credit_q);
        deque(&self.pend_credits);
        deque(&self.xbar);
    }

    /// Brings the record of the input VC a flit arriving on `port` with `vc` joins into the
    /// cache (see `read_ahead`).
    #[inline]
    pub fn read_ahead_arrival(&self, port: u32, vc: u8) {
        crate::read_ahead::value(&self.iv[(port * self.vcs + vc as u32) as usize]);
    }
}
