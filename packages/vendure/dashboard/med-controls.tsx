import { useState } from "react";
import { api, Button, Input } from "@vendure/dashboard";
import { centsFromReais, reais } from "./money";
import type { OrderCode } from "./order-code";

const RECORD_MED = /* GraphQL */ `
  mutation PixCheckoutRecordMed(
    $paymentId: ID!
    $protocol: String!
    $deadline: String!
    $amount: Money!
  ) {
    pixCheckoutRecordMed(
      paymentId: $paymentId
      protocol: $protocol
      deadline: $deadline
      amount: $amount
    ) {
      paymentId
    }
  }
`;

const RECORD_OUTCOME = /* GraphQL */ `
  mutation PixCheckoutRecordMedOutcome($paymentId: ID!, $outcome: String!, $amount: Money) {
    pixCheckoutRecordMedOutcome(paymentId: $paymentId, outcome: $outcome, amount: $amount) {
      paymentId
    }
  }
`;

/** What the deadline's state asks of the merchant. */
const DEADLINE_WORDS = {
  near: "Prazo próximo: se não tiver notícia, pergunte ao serviço de pagamento.",
  past: "O prazo passou: pergunte ao serviço de pagamento o que a instituição decidiu.",
};

/**
 * A Pix's MED 2.0 case on the order page: "Registrar MED" when the payer's institution blocked
 * money of it (the merchant heard of it from the service), then its outcome, "Mantido" or
 * "Devolvido pelo MED". The server decides where the money goes (`@pix-checkout/client/med`)
 * and refuses, in Portuguese, what it cannot move; this shows its word.
 */
export function MedControls({ code, onRecorded }: { code: OrderCode; onRecorded: () => void }) {
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const send = async (document: string, variables: Record<string, unknown>) => {
    setBusy(true);
    setFailure(null);
    try {
      await api.mutate(document, { paymentId: code.paymentId, ...variables });
      onRecorded();
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  if (code.method !== "pix") return null;
  const med = code.med;
  const said = failure ? (
    <p role="alert" className="text-xs text-destructive">
      {failure}
    </p>
  ) : null;
  if (med?.state === "open") {
    return (
      <div className="mt-2 flex flex-col gap-1" data-testid="pix-checkout-med">
        {/* The case itself is in the code's words, from the server; here, only what to do. */}
        {med.deadlineState === "near" || med.deadlineState === "past" ? (
          <p className="text-foreground">{DEADLINE_WORDS[med.deadlineState]}</p>
        ) : null}
        <MedOutcome blocked={med.blocked} busy={busy} send={send} />
        {said}
      </div>
    );
  }
  if (code.captured + code.owedBack <= 0) return null;
  return (
    <div className="mt-2 flex flex-col gap-1">
      <RecordMed busy={busy} send={send} />
      {said}
    </div>
  );
}

type Send = (document: string, variables: Record<string, unknown>) => Promise<void>;

/** The notificação de infração as the merchant read it: protocol, deadline, amount blocked. */
function RecordMed({ busy, send }: { busy: boolean; send: Send }) {
  const [open, setOpen] = useState(false);
  const [protocol, setProtocol] = useState("");
  const [deadline, setDeadline] = useState("");
  const [amount, setAmount] = useState("");
  if (!open) {
    return (
      <div>
        <Button type="button" variant="outline" size="sm" onClick={() => setOpen(true)}>
          Registrar MED
        </Button>
      </div>
    );
  }
  const cents = centsFromReais(amount);
  const ready = !busy && protocol.trim() !== "" && deadline !== "" && cents !== null && cents > 0;
  return (
    <div className="flex flex-wrap items-end gap-2">
      <label className="flex flex-col text-xs">
        Protocolo
        <Input value={protocol} onChange={(event) => setProtocol(event.target.value)} />
      </label>
      <label className="flex flex-col text-xs">
        Prazo da instituição
        <Input type="date" value={deadline} onChange={(event) => setDeadline(event.target.value)} />
      </label>
      <ReaisField label="Valor bloqueado (R$)" value={amount} onChange={setAmount} />
      <Button
        type="button"
        disabled={!ready}
        onClick={() =>
          void send(RECORD_MED, { protocol: protocol.trim(), deadline, amount: cents })
        }
      >
        Registrar
      </Button>
    </div>
  );
}

/** The institution's decision: kept, or returned to the payer (all of the block, or part). */
function MedOutcome({ blocked, busy, send }: { blocked: number; busy: boolean; send: Send }) {
  const [amount, setAmount] = useState(reais(blocked).replace(/^R\$\s*/, ""));
  const cents = centsFromReais(amount);
  return (
    <div className="flex flex-wrap items-end gap-2">
      <Button
        type="button"
        variant="outline"
        disabled={busy}
        onClick={() => void send(RECORD_OUTCOME, { outcome: "kept" })}
      >
        Mantido
      </Button>
      <ReaisField label="Valor devolvido (R$)" value={amount} onChange={setAmount} />
      <Button
        type="button"
        disabled={busy || cents === null}
        onClick={() => void send(RECORD_OUTCOME, { outcome: "returned", amount: cents })}
      >
        Devolvido pelo MED
      </Button>
    </div>
  );
}

/** An amount in reais as the merchant types it ("20,00"); `centsFromReais` reads it. */
function ReaisField({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (typed: string) => void;
}) {
  return (
    <label className="flex flex-col text-xs">
      {label}
      <Input inputMode="decimal" value={value} onChange={(event) => onChange(event.target.value)} />
    </label>
  );
}
