/** One code of an order as `pixCheckoutOrderCodes` answers it: integer cents, decided on the server. */
export interface OrderCode {
  paymentId: string;
  method: "pix" | "boleto";
  chargeId: string;
  asked: number;
  received: number;
  captured: number;
  /** Captured money an open MED blocked. */
  contested: number;
  owedBack: number;
  returned: number;
  became: "waiting" | "captured" | "held" | "ended";
  words: string;
  devolucao: { deadline: string; daysLeft: number; state: string } | null;
  med: MedCase | null;
}

/** A MED 2.0 case on a Pix (`PixCheckoutMed`). */
export interface MedCase {
  protocol: string;
  /** YYYY-MM-DD, São Paulo. */
  deadline: string;
  blocked: number;
  blockedOwed: number;
  contested: number;
  state: "open" | "kept" | "returned";
  returned: number | null;
  deadlineState: "ok" | "near" | "past" | null;
}

export const MED_FIELDS = /* GraphQL */ `
  protocol
  deadline
  blocked
  blockedOwed
  contested
  state
  returned
  deadlineState
`;

export const ORDER_CODE_FIELDS = /* GraphQL */ `
  paymentId
  method
  chargeId
  asked
  received
  captured
  contested
  owedBack
  returned
  became
  words
  devolucao { deadline daysLeft state }
  med { ${MED_FIELDS} }
`;
