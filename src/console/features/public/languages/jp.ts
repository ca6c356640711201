/** The public pages' texts (jp). */
import type { PublicTranslation } from './en';

export const jp: PublicTranslation = {
  contact: {
    title: 'お問い合わせ',
    intro: 'プラン、ライセンス、データ、コンソールに関するご質問はこちらへ。メールで回答します。',
    name: 'お名前',
    email: 'メールアドレス',
    subject: '件名',
    message: 'メッセージ',
    count: '{{count}} / {{max}} 文字',
    privacy: 'メッセージは保存され、担当チームにメールで送られます。プライバシーポリシーをご覧ください。',
    send: 'メッセージを送信',
    sending: '送信中…',
    sentTitle: 'メッセージを送信しました',
    sentText: 'ありがとうございます。{{email}} 宛てに回答します。',
    again: '別のメッセージを送信',
    errors: {
      required: 'この項目は必須です。',
      email: '有効なメールアドレスを入力してください。',
      tooLong: '長すぎます。',
      tooShort: '{{min}} 文字以上入力してください。',
    },
  },
  policies: { nav: 'ポリシー', contact: 'ご質問はお問い合わせへ', pricing: '料金' },
};
