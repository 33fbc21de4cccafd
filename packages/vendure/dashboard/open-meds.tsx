import {
  api,
  Badge,
  DetailPageButton,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "@vendure/dashboard";
import { brazilianDay, reais } from "./money";
import { MED_FIELDS, type MedCase } from "./order-code";
import { useAdminQuery } from "./use-admin-query";

interface OpenMed {
  paymentId: string;
  orderId: string;
  orderCode: string;
  chargeId: string;
  med: MedCase;
}

const OPEN_MEDS = /* GraphQL */ `
  query PixCheckoutOpenMeds {
    pixCheckoutOpenMeds { paymentId orderId orderCode chargeId med { ${MED_FIELDS} } }
  }
`;

const DEADLINE: Record<
  "ok" | "near" | "past",
  { label: string; variant: "secondary" | "warning" | "destructive" }
> = {
  ok: { label: "No prazo", variant: "secondary" },
  near: { label: "Prazo próximo", variant: "warning" },
  past: { label: "Prazo passou", variant: "destructive" },
};

/** The channel's open MED cases, nearest deadline first, each a link to its order. */
export function OpenMeds() {
  const result = useAdminQuery<{ pixCheckoutOpenMeds: OpenMed[] }>(() => api.query(OPEN_MEDS), []);
  if (result.state === "loading")
    return <p className="text-sm text-muted-foreground">Carregando…</p>;
  if (result.state === "failed") {
    return (
      <p className="text-sm text-destructive">Não foi possível ler os MEDs: {result.message}</p>
    );
  }
  const open = result.data.pixCheckoutOpenMeds;
  if (open.length === 0) return <p className="text-sm">Nenhum MED aberto.</p>;
  return (
    <Table data-testid="pix-checkout-open-meds">
      <TableHeader>
        <TableRow>
          <TableHead>Pedido</TableHead>
          <TableHead>Protocolo</TableHead>
          <TableHead className="text-right">Bloqueado</TableHead>
          <TableHead>Decisão até</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {open.map(({ paymentId, orderId, orderCode, chargeId, med }) => {
          const deadline = DEADLINE[med.deadlineState ?? "ok"];
          return (
            <TableRow key={paymentId}>
              <TableCell>
                <DetailPageButton href={`/orders/${orderId}`} label={orderCode} />
                <div className="font-mono text-xs text-muted-foreground">{chargeId}</div>
              </TableCell>
              <TableCell>{med.protocol}</TableCell>
              <TableCell className="text-right">{reais(med.blocked)}</TableCell>
              <TableCell>
                {brazilianDay(med.deadline)}{" "}
                <Badge variant={deadline.variant}>{deadline.label}</Badge>
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
