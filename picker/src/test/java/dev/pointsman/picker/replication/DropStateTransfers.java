package dev.pointsman.picker.replication;

import org.jgroups.Message;
import org.jgroups.protocols.pbcast.STATE;
import org.jgroups.stack.Protocol;
import org.jgroups.util.MessageBatch;

/**
 * A test protocol, inserted above the transport: drops every message of the state-transfer protocol
 * (STATE) it receives, so that the member it runs in never answers a state request.
 */
final class DropStateTransfers extends Protocol {
  private final short stateId;

  DropStateTransfers(org.jgroups.stack.ProtocolStack stack) {
    this.stateId = stack.findProtocol(STATE.class).getId();
  }

  @Override
  public Object up(Message msg) {
    return msg.getHeader(stateId) != null ? null : up_prot.up(msg);
  }

  @Override
  public void up(MessageBatch batch) {
    batch.removeIf(m -> m.getHeader(stateId) != null, true);
    if (!batch.isEmpty()) {
      up_prot.up(batch);
    }
  }
}
