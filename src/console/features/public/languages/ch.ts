/** The public pages' texts (ch: Simplified Chinese). */
import type { PublicTranslation } from './en';

export const ch: PublicTranslation = {
  contact: {
    title: '联系我们',
    intro: '关于套餐、许可证、您的数据或控制台的问题：请给我们留言，我们会通过邮件答复。',
    name: '您的姓名',
    email: '您的电子邮件地址',
    subject: '主题',
    message: '留言',
    count: '{{count}} / {{max}} 个字符',
    privacy: '我们会保存您的留言并发送给我们的团队；请参阅隐私政策。',
    send: '发送留言',
    sending: '正在发送…',
    sentTitle: '留言已发送',
    sentText: '谢谢。我们会回复到 {{email}}。',
    again: '再发送一条留言',
    errors: {
      required: '此字段为必填项。',
      email: '请输入有效的电子邮件地址。',
      tooLong: '内容过长。',
      tooShort: '请至少输入 {{min}} 个字符。',
    },
  },
  policies: { nav: '政策', contact: '有疑问？联系我们', pricing: '价格' },
};
