import { useState } from "react";
import { api, Button, Input } from "@vendure/dashboard";

const RECORD_RETURN = /* GraphQL */ `
  mutation PixCheckoutRecordHeldReturn($paymentId: ID!, $reference: String!) {
    pixCheckoutRecordHeldReturn(paymentId: $paymentId, reference: $reference) {
      paymentId
    }
  }
`;

/**
 * A held code's money returned at the service's dashboard, recorded with the devolução's id the
 * merchant types; the server refuses a blank, a second or a foreign one in Portuguese, shown here.
 */
export function RecordReturn({
  paymentId,
  onRecorded,
}: {
  paymentId: string;
  onRecorded: () => void;
}) {
  const [reference, setReference] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const record = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await api.mutate(RECORD_RETURN, { paymentId, reference });
      onRecorded();
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  const ready = !busy && reference.trim() !== "";
  // No <form> of its own: on the order page it sits inside the page's form, and a nested form is
  // dropped by the browser (its button would submit the order's).
  return (
    <div className="flex flex-col gap-1">
      <div className="flex gap-2">
        <Input
          className="min-w-56"
          aria-label="Identificador da devolução"
          placeholder="Identificador da devolução"
          value={reference}
          onChange={(event) => setReference(event.target.value)}
          onKeyDown={(event) => {
            if (event.key !== "Enter") return;
            event.preventDefault();
            if (ready) void record();
          }}
        />
        <Button type="button" disabled={!ready} onClick={() => void record()}>
          Registrar devolução
        </Button>
      </div>
      {failure ? (
        <p role="alert" className="text-xs text-destructive">
          {failure}
        </p>
      ) : null}
    </div>
  );
}
