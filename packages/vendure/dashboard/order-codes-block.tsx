import {
  api,
  Badge,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
  type PageContextValue,
} from "@vendure/dashboard";
import { Fragment } from "react";
import { RecordReturn } from "./record-return";
import { useAdminQuery } from "./use-admin-query";
import { devolucaoLine, reais } from "./money";

interface OrderCode {
  paymentId: string;
  method: "pix" | "boleto";
  chargeId: string;
  asked: number;
  received: number;
  captured: number;
  owedBack: number;
  returned: number;
  became: "waiting" | "captured" | "held" | "ended";
  words: string;
  devolucao: { deadline: string; daysLeft: number; state: string } | null;
}

const ORDER_CODES = /* GraphQL */ `
  query PixCheckoutOrderCodes($orderId: ID!) {
    pixCheckoutOrderCodes(orderId: $orderId) {
      paymentId
      method
      chargeId
      asked
      received
      captured
      owedBack
      returned
      became
      words
      devolucao {
        deadline
        daysLeft
        state
      }
    }
  }
`;

const BECAME: Record<
  OrderCode["became"],
  { label: string; variant: "success" | "warning" | "secondary" | "destructive" }
> = {
  captured: { label: "Capturado", variant: "success" },
  held: { label: "Retido", variant: "destructive" },
  waiting: { label: "Aguardando", variant: "warning" },
  ended: { label: "Encerrado", variant: "secondary" },
};

/** The order's Pix and boleto codes: what each asked, received and became, and what goes back. */
export function OrderCodesBlock({ context }: { context: PageContextValue }) {
  const orderId = context.entity?.id as string | undefined;
  const result = useAdminQuery<{ pixCheckoutOrderCodes: OrderCode[] }>(
    () => api.query(ORDER_CODES, { orderId }),
    [orderId],
  );
  if (result.state === "loading")
    return <p className="text-sm text-muted-foreground">Carregando…</p>;
  if (result.state === "failed") {
    return (
      <p className="text-sm text-destructive">Não foi possível ler os códigos: {result.message}</p>
    );
  }
  const codes = result.data.pixCheckoutOrderCodes;
  if (codes.length === 0) {
    return (
      <p className="text-sm text-muted-foreground">Nenhum código Pix ou boleto neste pedido.</p>
    );
  }
  const sum = (pick: (code: OrderCode) => number) =>
    codes.reduce((total, code) => total + pick(code), 0);
  // Each code is two rows: its money in five narrow columns, then what became of it in words, so
  // the block fits the order page's main column at 1024 px.
  return (
    <Table data-testid="pix-checkout-order-codes" className="text-sm">
      <TableHeader>
        <TableRow>
          <TableHead>Código</TableHead>
          <TableHead className="text-right">Pedido</TableHead>
          <TableHead className="text-right">Recebido</TableHead>
          <TableHead className="text-right">Capturado</TableHead>
          <TableHead className="text-right">A devolver</TableHead>
          <TableHead className="text-right">Devolvido</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {codes.map((code) => (
          <Fragment key={code.paymentId}>
            <TableRow className="border-b-0">
              <TableCell className="whitespace-normal">
                <span className="mr-1">{code.method === "boleto" ? "Boleto" : "Pix"}</span>{" "}
                <Badge variant={BECAME[code.became].variant}>{BECAME[code.became].label}</Badge>
              </TableCell>
              <TableCell className="text-right">{reais(code.asked)}</TableCell>
              <TableCell className="text-right">{reais(code.received)}</TableCell>
              <TableCell className="text-right">{reais(code.captured)}</TableCell>
              <TableCell className="text-right">{reais(code.owedBack)}</TableCell>
              <TableCell className="text-right">{reais(code.returned)}</TableCell>
            </TableRow>
            <TableRow>
              <TableCell colSpan={6} className="whitespace-normal pt-0 text-muted-foreground">
                {code.words}
                {code.owedBack > 0 && code.devolucao ? ` · ${devolucaoLine(code.devolucao)}` : ""}
                <div className="font-mono text-xs break-all">{code.chargeId}</div>
                {code.became === "held" && code.owedBack > 0 ? (
                  <div className="mt-2 max-w-md">
                    <RecordReturn paymentId={code.paymentId} onRecorded={result.reload} />
                  </div>
                ) : null}
              </TableCell>
            </TableRow>
          </Fragment>
        ))}
        <TableRow className="font-medium">
          <TableCell>Total</TableCell>
          <TableCell className="text-right">{reais(sum((c) => c.asked))}</TableCell>
          <TableCell className="text-right">{reais(sum((c) => c.received))}</TableCell>
          <TableCell className="text-right">{reais(sum((c) => c.captured))}</TableCell>
          <TableCell className="text-right">{reais(sum((c) => c.owedBack))}</TableCell>
          <TableCell className="text-right">{reais(sum((c) => c.returned))}</TableCell>
        </TableRow>
      </TableBody>
    </Table>
  );
}
