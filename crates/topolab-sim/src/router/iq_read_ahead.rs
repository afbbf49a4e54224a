//! Reading an input-queued router's state ahead of its turn (see `crate::read_ahead`).

use super::IqState;

impl IqState {
    /// Brings this router's VC records, buffered flits, work lists and queues into the cache
    /// ahead of its turn, whole arrays (see `crate::read_ahead`; `ReadAhead::Whole`).
    pub fn read_ahead(&self) {
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
        deque(&self.xbar);
        slice(&self.leaving);
        slice(&self.crossing);
    }
}
