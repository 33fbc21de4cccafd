import {
  api,
  DetailPageButton,
  FullWidthPageBlock,
  Page,
  PageLayout,
  PageTitle,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "@vendure/dashboard";
import { BooksDownload } from "./books-download";
import { OpenMeds } from "./open-meds";
import { RecordReturn } from "./record-return";
import { useAdminQuery } from "./use-admin-query";
import { devolucaoLine, reais } from "./money";

type Devolucao = { deadline: string; daysLeft: number; state: string } | null;

interface HeldPayment {
  paymentId: string;
  orderId: string;
  orderCode: string;
  amount: number;
  chargeId: string;
  why: string;
  devolucao: Devolucao;
}

interface RefundDue {
  refundId: string;
  orderCode: string;
  amount: number;
  chargeId: string;
  instructions: string;
  devolucao: Devolucao;
}

const PENDING = /* GraphQL */ `
  query PixCheckoutPending {
    pixCheckoutHeldPayments {
      paymentId
      orderId
      orderCode
      amount
      chargeId
      why
      devolucao {
        deadline
        daysLeft
        state
      }
    }
    pixCheckoutRefundsDue {
      refundId
      orderCode
      amount
      chargeId
      instructions
      devolucao {
        deadline
        daysLeft
        state
      }
    }
  }
`;

/**
 * What needs the merchant: paid codes that settled nothing (the shopper's money, to return at the
 * service and record here) and refunds owed (to return, then record on the order).
 */
export function PendingPage() {
  const result = useAdminQuery<{
    pixCheckoutHeldPayments: HeldPayment[];
    pixCheckoutRefundsDue: RefundDue[];
  }>(() => api.query(PENDING), []);
  return (
    <Page pageId="pix-checkout-pending">
      <PageTitle>Pix e boleto: o que precisa de você</PageTitle>
      <PageLayout>
        <FullWidthPageBlock blockId="pix-checkout-held">
          <h2 className="text-lg font-semibold">Pagamentos retidos</h2>
          <p className="text-sm text-muted-foreground">
            Pagos, mas não pagam o pedido: o dinheiro é do pagador. Devolva pelo painel do serviço
            de pagamento e registre aqui o identificador da devolução.
          </p>
          {result.state === "loaded" ? (
            <HeldTable held={result.data.pixCheckoutHeldPayments} onRecorded={result.reload} />
          ) : (
            <Loading result={result} />
          )}
        </FullWidthPageBlock>
        <FullWidthPageBlock blockId="pix-checkout-refunds-due">
          <h2 className="text-lg font-semibold">Reembolsos a fazer</h2>
          <p className="text-sm text-muted-foreground">
            Devolva pelo painel do serviço de pagamento e registre o reembolso no pedido, com o
            identificador da devolução.
          </p>
          {result.state === "loaded" ? (
            <RefundsTable refunds={result.data.pixCheckoutRefundsDue} />
          ) : (
            <Loading result={result} />
          )}
        </FullWidthPageBlock>
        <FullWidthPageBlock blockId="pix-checkout-open-meds">
          <h2 className="text-lg font-semibold">MEDs abertos</h2>
          <p className="text-sm text-muted-foreground">
            Pix que a instituição do pagador bloqueou por uma notificação de infração (MED 2.0).
            Quando souber a decisão, registre-a no pedido: mantido ou devolvido pelo MED.
          </p>
          <OpenMeds />
        </FullWidthPageBlock>
        <FullWidthPageBlock blockId="pix-checkout-books">
          <h2 className="text-lg font-semibold">Livro de Pix e boleto</h2>
          <p className="text-sm text-muted-foreground">
            Cada movimento do período (pago, retido, a devolver, devolvido), com os totais, para o
            Excel.
          </p>
          <BooksDownload />
        </FullWidthPageBlock>
      </PageLayout>
    </Page>
  );
}

function Loading({
  result,
}: {
  result: { state: "loading" } | { state: "failed"; message: string };
}) {
  return result.state === "loading" ? (
    <p className="text-sm text-muted-foreground">Carregando…</p>
  ) : (
    <p className="text-sm text-destructive">Não foi possível ler a lista: {result.message}</p>
  );
}

function HeldTable({ held, onRecorded }: { held: HeldPayment[]; onRecorded: () => void }) {
  if (held.length === 0) return <p className="text-sm">Nenhum pagamento retido.</p>;
  return (
    <Table data-testid="pix-checkout-held">
      <TableHeader>
        <TableRow>
          <TableHead>Pedido</TableHead>
          <TableHead className="text-right">Valor</TableHead>
          <TableHead>Por quê</TableHead>
          <TableHead>Devolução</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {held.map((entry) => (
          <TableRow key={entry.paymentId}>
            <TableCell>
              <DetailPageButton href={`/orders/${entry.orderId}`} label={entry.orderCode} />
              <div className="font-mono text-xs text-muted-foreground">{entry.chargeId}</div>
            </TableCell>
            <TableCell className="text-right">{reais(entry.amount)}</TableCell>
            <TableCell className="whitespace-normal">
              {entry.why}
              {entry.devolucao ? (
                <div className="text-xs text-muted-foreground">
                  {devolucaoLine(entry.devolucao)}
                </div>
              ) : null}
            </TableCell>
            <TableCell>
              <RecordReturn paymentId={entry.paymentId} onRecorded={onRecorded} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function RefundsTable({ refunds }: { refunds: RefundDue[] }) {
  if (refunds.length === 0) return <p className="text-sm">Nenhum reembolso a fazer.</p>;
  return (
    <Table data-testid="pix-checkout-refunds-due">
      <TableHeader>
        <TableRow>
          <TableHead>Pedido</TableHead>
          <TableHead className="text-right">Valor</TableHead>
          <TableHead>O que fazer</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {refunds.map((refund) => (
          <TableRow key={refund.refundId}>
            <TableCell>
              {refund.orderCode}
              <div className="font-mono text-xs text-muted-foreground">{refund.chargeId}</div>
            </TableCell>
            <TableCell className="text-right">{reais(refund.amount)}</TableCell>
            <TableCell className="whitespace-normal">{refund.instructions}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
