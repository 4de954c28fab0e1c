// Test data, one way each (ADR 0018): members and XP as raw rows, posts through the domain services.
export { attempt, challenge, type ChallengeOverrides } from "./challenge";
export { creation, type CreationOverrides } from "./creation";
export { discussion, type DiscussionOverrides } from "./discussion";
export { grantXp, member, memberIdByEmail, type MemberOverrides } from "./member";
export { answer, question, type AnswerOverrides, type QuestionOverrides } from "./question";
export { topic, type TopicOverrides } from "./topic";
