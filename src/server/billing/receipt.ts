/**
 * The receipt mail of a paid order (issue 13 "A paid order creates the licence … and a receipt mail"), in the
 * six interface languages of §2. Plain text. With the offline test provider it says that no money moved.
 */
import type { MailLanguage } from '../../protocol/accounts';
import type { OutgoingMail } from '../mail';

interface ReceiptTexts {
  subject: string;
  hello: string;
  paid: string;
  plan: string;
  device: string;
  amount: string;
  card: string;
  period: string;
  order: string;
  test: string;
  licences: string;
}

const TEXTS: Record<MailLanguage, ReceiptTexts> = {
  en: {
    subject: 'Your receipt: {plan}',
    hello: 'Hello {name},',
    paid: 'Thank you, your payment went through and your licence is ready.',
    plan: 'Plan',
    device: 'Device',
    amount: 'Amount',
    card: 'Card',
    period: 'Valid',
    order: 'Order',
    test: 'Paid with the offline test payment provider: no money moved.',
    licences: 'Your licences:',
  },
  ch: {
    subject: '您的收据：{plan}',
    hello: '{name}，您好：',
    paid: '谢谢，您的付款已完成，许可证已生效。',
    plan: '套餐',
    device: '设备',
    amount: '金额',
    card: '银行卡',
    period: '有效期',
    order: '订单',
    test: '使用离线测试支付提供方支付：未发生实际扣款。',
    licences: '您的许可证：',
  },
  es: {
    subject: 'Su recibo: {plan}',
    hello: 'Hola {name}:',
    paid: 'Gracias, su pago se ha completado y su licencia está lista.',
    plan: 'Plan',
    device: 'Dispositivo',
    amount: 'Importe',
    card: 'Tarjeta',
    period: 'Válida',
    order: 'Pedido',
    test: 'Pagado con el proveedor de pagos de prueba sin conexión: no se ha movido dinero.',
    licences: 'Sus licencias:',
  },
  jp: {
    subject: '領収書：{plan}',
    hello: '{name} 様',
    paid: 'お支払いが完了し、ライセンスが有効になりました。ありがとうございます。',
    plan: 'プラン',
    device: 'デバイス',
    amount: '金額',
    card: 'カード',
    period: '有効期間',
    order: '注文',
    test: 'オフラインのテスト決済プロバイダーで支払われました。実際の請求は発生していません。',
    licences: 'ライセンス一覧：',
  },
  de: {
    subject: 'Ihre Quittung: {plan}',
    hello: 'Hallo {name},',
    paid: 'Vielen Dank, Ihre Zahlung ist eingegangen und Ihre Lizenz ist bereit.',
    plan: 'Tarif',
    device: 'Gerät',
    amount: 'Betrag',
    card: 'Karte',
    period: 'Gültig',
    order: 'Bestellung',
    test: 'Mit dem Offline-Testzahlungsanbieter bezahlt: Es wurde kein Geld bewegt.',
    licences: 'Ihre Lizenzen:',
  },
  fr: {
    subject: 'Votre reçu : {plan}',
    hello: 'Bonjour {name},',
    paid: 'Merci, votre paiement est passé et votre licence est prête.',
    plan: 'Offre',
    device: 'Appareil',
    amount: 'Montant',
    card: 'Carte',
    period: 'Valable',
    order: 'Commande',
    test: 'Payé avec le fournisseur de paiement de test hors ligne : aucun argent n’a été débité.',
    licences: 'Vos licences :',
  },
};

export interface ReceiptFacts {
  to: string;
  name: string;
  planName: string;
  device: string | null;
  amountCents: number;
  currency: string;
  card: { brand: string; last4: string } | null;
  startsAt: Date;
  expiresAt: Date;
  orderId: string;
  testProvider: boolean;
  /** The console's address (links). */
  baseUrl: string;
  language?: MailLanguage;
}

/** Amount in cents as "19.00 EUR". */
export const formatAmount = (cents: number, currency: string): string =>
  `${(cents / 100).toFixed(2)} ${currency}`;

/** The receipt mail. Pure. */
export function receiptMail(f: ReceiptFacts): OutgoingMail {
  const t = TEXTS[f.language ?? 'en'];
  const day = (d: Date) => d.toISOString().slice(0, 10);
  const lines = [
    t.hello.replace('{name}', f.name),
    '',
    t.paid,
    '',
    `${t.plan}: ${f.planName}`,
    ...(f.device ? [`${t.device}: ${f.device}`] : []),
    `${t.amount}: ${formatAmount(f.amountCents, f.currency)}`,
    ...(f.card ? [`${t.card}: ${f.card.brand} •••• ${f.card.last4}`] : []),
    `${t.period}: ${day(f.startsAt)} – ${day(f.expiresAt)}`,
    `${t.order}: ${f.orderId}`,
    ...(f.testProvider ? ['', t.test] : []),
    '',
    t.licences,
    `${f.baseUrl}/profile/my-licences`,
  ];
  return { to: f.to, subject: t.subject.replace('{plan}', f.planName), text: lines.join('\n') };
}
