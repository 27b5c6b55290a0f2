// The receipt source the routers use. Until sealed receipts are stored (server/receipts), no candidate
// has a receipt to approve: load answers null and the approval UI says so.
import type { ReceiptSource } from "./source";

export const receiptSource: ReceiptSource = {
  async load() {
    return null;
  },
  async append() {
    throw new Error("sealed receipts are not stored yet");
  },
  async listCandidateIds() {
    return [];
  },
};
