//! The word families (concepts) of the injection rules, and the rules that combine them.
//! Kept out of rustfmt so each list stays a compact paragraph; `rules` explains matching.

use super::rules::Rule;
use crate::engine::words::WordList;
use super::InjectionKind::*;

// ---- English concepts ----

/// Verbs that set earlier instructions aside.
const IGNORE: &str = "ignor|disregard|forget|overrid|bypass|circumvent|set aside|throw out|abandon|discard|erase|wipe|\
    dismiss|stop follow|dont follow|do not follow|no longer follow|supersed|scrap|cancel|delete your|\
    clear your|reset your|pay no attention|dont pay attention|drop all|drop your|drop any|\
    drop the previous|drop the prior";
/// Words that point at the instructions already given.
const PRIOR: &str = "previous|prior|above|earlier|preceding|original|initial|old$|existing|system|developer|all$|any$|every|your|\
    these|those|safety|default|current|hidden|given|operator";
/// Instructions, rules and their synonyms.
const INSTRUCTIONS: &str = "instruct|rule|guideline|guidance|directive|prompt|polic|programming|orders$|commands|constraint|\
    system message|training|directions|restriction|guardrail|safeguard|protocol|context$|messages$";
/// "Everything you were told", said without naming instructions.
const EVERYTHING: &str = "everything|all that|anything|all of that|what you were told|whatever";
/// Where the set-aside text was.
const BEFORE: &str = "above|before|prior|previous|earlier|said|told|so far|until now";
/// Announcements that new orders replace the old ones.
const NEW_ORDERS: &str = "new instructions|new instruction is|new directive|new rules|updated instructions|rules have changed|\
    rules changed|instructions have changed|supersedes all|new system prompt|your real task|your actual task|\
    your true task|your new task|real instructions|instead follow|follow only my";
/// Saying the earlier orders no longer count.
const NO_LONGER_COUNT: &str = "doesnt matter|does not matter|dont matter|do not matter|no longer matter|no longer apply|\
    dont apply|do not apply|are void|is void|are cancelled|are canceled|no longer valid|not valid anymore|are obsolete";
/// What no longer counts: the model's own orders.
const YOUR_ORDERS: &str = "you were told|you were given|your rules|your instructions|your guidelines|your orders|\
    previous instructions|prior instructions|earlier instructions|previous rules|prior rules|your previous|your prior";
/// Verbs that bring hidden text into the open.
const REVEAL: &str = "reveal|show|print|repeat|output|leak|display|tell|give|share|dump|expose|disclose|write out|write down|\
    recite|spell out|what$|whats|copy|paste|list|summar|echo|return|provide|send|read back|quote|reproduce|\
    translate|begin by";
/// The text that steers the model, in its many names.
const SYSTEM_PROMPT: &str = "system prompt|system message|system instruct|system text|initial instruct|initial prompt|hidden prompt|\
    hidden instruct|secret instruct|original instruct|original prompt|developer message|developer instruct|\
    developer prompt|preprompt|pre prompt|metaprompt|meta prompt|your instruct|your prompt|your rules|\
    your guidelines|your system|your initial|your original|your configuration|your directives|your programming|\
    your setup|your context|operating instructions|internal configuration|internal instructions|internal rules|\
    context window|words above|text above|everything above|above this conversation|instructions you|prompt you|\
    you were given|you were told|were you given|were you told|confidential instruct|starting with you are|\
    first message|first instructions|configuration|initial settings|initial setup|initial configuration|\
    settings text";
/// Phrases that hand the model a new identity.
const YOU_NOW: &str = "you are now|youre now|from now on you|from now on your|you will now be|you will now act|you shall now|\
    act as|pretend to be|pretend you are|pretend youre|your new role|new persona|roleplay as|role play as|\
    behave as|respond as|answer as|you become|now you are|henceforth you";
/// Identities that come with more power or fewer rules.
const ROLE_TARGET: &str = "admin|root$|superuser|sudo|developer|system$|dan$|unrestricted|unfiltered|uncensored|unlimited|jailbr|evil|\
    malicious|hacker|god$|owner|operator|in charge|master|unbound|amoral|unethical|no rules|no restrictions|\
    no limits|no filter|without rules|without restrictions|without limits|without filter|different ai|\
    another ai|new ai|free ai|no content";
/// "You are the …": naming the model's new identity.
const YOU_ARE: &str = "you are the|youre the|you are an|youre an|you are my|youre my|you are a|youre a";
/// Now, henceforth.
const NOW: &str = "now|from here on|henceforth|for the rest";
/// Devices and apps whose own developer mode is no jailbreak.
const DEVICES: &str = "android|iphone|phone|chrome|browser|app$|apps$|settings|windows|mac$|usb|device|toggle|firefox|xcode|\
    console|안드로이드|아이폰|휴대폰|폰에서|크롬|브라우저|앱|설정 화면|토글";
/// "You are no longer …": leaving the assigned role.
const NO_LONGER: &str = "you are no longer|youre no longer|no longer bound|no longer an ai|no longer a$";
/// Modes that jailbreak prompts name.
const MODES: &str = "developer mode|dev mode|god mode|dan mode|jailbreak mode|jailbroken|unrestricted mode|unfiltered mode|\
    uncensored mode|evil mode|sudo mode|root mode|admin mode|do anything now";
/// Turning a mode on, or being in it.
const MODE_ON: &str = "enter|enable|activate|switch|turn on|unlock|you are in|now in|engage|enabled|activated|in this mode|\
    in developer";
/// Words that remove limits.
const NO_LIMITS: &str = "no$|without|zero|free of|free from|unrestricted|unfiltered|uncensored|remove|lift|disable|turn off|bypass|\
    unlock|exempt|not bound|beyond|ignore|disregard|skip|not meant|dont apply|do not apply|no longer apply|off$|\
    suspend";
/// Limits a jailbreak wants gone.
const LIMITS: &str = "restrict|limit|filter|rule|censor|guideline|polic|safety|guardrail|boundar|moral|ethic|constraint|safeguard";
/// Words that show the model is the one being addressed.
const AT_MODEL: &str = "you|your|answer|respond|reply|comply|assistant|ai$|model|mode$|chatbot|bot$|proceed|allowed|content|\
    question|request";
/// Dropping safety checks or granting everything.
const GRANT: &str = "grant|allow|approve|permission|permit|authoriz|skip|disable|suspend|waive|turn off";
/// What a bypass grants.
const GRANTED: &str = "all requests|every request|any request|all content|admin access|full access|root access|safety check|\
    safety protocol|safety filter|content filter|all safety|safety rule";
/// Verbs that make a secret leave.
const LEAK: &str = "exfiltrat|harvest|leak$|leak the|leak all|leak your|steal$|steal the|dump$|dump the|dump all|\
    extract the|extract all|extract your";
/// Secrets.
const SECRETS: &str = "api key|apikey|secret key|access key|access token|auth token|bearer token|session token|password|passwd|\
    credential|private key|ssh key|environment variable|env var|env file|secrets|secret$|openai key|tokens$|\
    token$|keys$";
/// Whose secrets: the system's, not the user's own.
const SECRET_OWNER: &str = "your|you have|you can access|you know|you use|you are using|youre using|stored|system|admin|environment|\
    server|internal|all$|any$|every|config|saved|in memory|other users|the developer|production";
/// Calling a tool.
const CALL: &str = "call|use|invoke|run|execute|trigger";
/// Tool names an agent might hold.
const TOOLS: &str = "delete file|send email|http post|http get|write file|read file|exec$|system command|os system|\
    subprocess|powershell";
/// Commands that destroy or read system files.
const DANGEROUS_COMMANDS: &str = "etc passwd|etc shadow|id rsa|ssh id";
/// Sending data somewhere.
const SEND: &str = "send|email|forward|post|upload|transmit|exfiltrat|leak|share|copy";
/// Data worth stealing.
const PRIVATE_DATA: &str = "customer list|customer data|customer emails|customer database|customer records|all records|order data|\
    user data|personal data|conversation|chat history|credentials|api keys|passwords|database|full customer|\
    all data|all files|private|confidential|environment variables";
/// Somewhere outside.
const OUTSIDE: &str = "attacker|evil|external|externally|http|webhook|outside|this address|this email|pastebin|com$|net$|org$|io$|\
    example$";
/// Pasted text that speaks to the model reading it.
const ADDRESS_AI: &str = "ai reading|assistant reading|model reading|llm reading|bot reading|if you are an ai|if youre an ai|\
    if you are a language model|if you are an llm|if you are an assistant|note to the bot|note to the ai|\
    note to the assistant|note for ai|note for the ai|notice to any ai|to any ai|any ai system|for ai agents|\
    ai agents integrating|ai agents reading|for ai coding|to the assistant|for the assistant|message to the ai|\
    attention ai|dear ai|instructions for the ai|instruction for ai|ai system processing|ai processing|\
    agent reading|when you read this|when you process this|system note|processing note";
/// Orders hidden in pasted text.
const HIDDEN_ORDER: &str = "include|append|add|call|send|email|forward|delete|remove|empty|reveal|print|ignore|disregard|output|reply|\
    respond|say|write|save|repeat|reproduce|must|should|instead|do not|dont|required";
/// Persisting an order in the model's memory.
const MEMORY: &str = "your memory|long term memory|for all future|every future|all future|persist across|persists across|\
    persisted";
/// What a memory order asks.
const MEMORY_ORDER: &str = "save|remember|append|include|repeat|always|begin by";
/// Decoding a payload.
const DECODE: &str = "decode|decipher|translate|convert|deobfuscat|unscramble|reverse|read|interpret";
/// Encodings.
const ENCODINGS: &str = "base64|base 64|hex|binary|rot13|rot 13|morse|base32|encoded|cipher|backwards";
/// Then doing what it says.
const FOLLOW: &str = "do what it says|do exactly what|follow|execute|obey|run it|carry out|act on|comply|instruction inside|\
    then do|do as it|as a command";

// ---- Korean concepts (each with an English gloss) ----

/// 무시해/잊어/따르지 마: imperative "ignore / forget / don't follow" (not the adnominal 무시하는).
const IGNORE_KO: &str = "무시해$|무시해줘|무시해라|무시해요|무시해주|무시해서|무시해버려|무시해봐|무시하고|무시하세|무시하라|무시하십|무시하셈|무시할 것|무시 해$|무시하도록|무시하렴|잊어|잊고|잊으|\
    잊자|잊을 것|잊게|버려|버리고|따르지 마|따르지마|따르지 말|따르지 않아도|따를 필요|무효로|무효화|무효야|무효다|신경 쓰지|신경쓰지|없던 일|없던일|덮어쓰고|덮어써$|덮어써라|어겨|어기고|우회해|\
    우회하고|폐기해|폐기하고|ignor|forget|disregard";
/// 지시/지침/명령/규칙: instructions, guidelines, orders, rules.
const INSTRUCTIONS_KO: &str = "지시|지침|명령|규칙|프롬프트|가이드라인|정책|원칙|지령|룰|설정값|제약|제한|시스템 메시지|시스템 메세지|instruction|prompt|rule";
/// 중요하지 않아/상관없어/효력 없음: "no longer counts".
const NO_LONGER_COUNT_KO: &str = "중요하지 않|상관없|상관 없|의미 없|필요 없|효력이 없|효력 없|더 이상 유효하지|유효하지 않|적용되지 않";
/// 내 지시만 따라/내 말만 들어: "obey only me".
const ONLY_ME_KO: &str = "내 지시만|내 명령만|내 말만 따라|내 말만 들어|나의 지시만|내 지시대로만|나만 따라";
/// 보여줘/알려줘/출력해: show, tell, print, disclose, and "what is".
const REVEAL_KO: &str = "보여|알려|출력|공개|말해|복사|노출|누설|유출|읊어|털어|요약해|내놔|뱉어|밝혀|뭐야|뭔지|뭐였|무엇|무슨 내용|옮겨|붙여|반복해|알고 싶|공유|나열|보내|그대로|show|\
    print|reveal";
/// 시스템 프롬프트/초기 설정 문구/처음 받은 지시: the steering text in its Korean names.
const SYSTEM_PROMPT_KO: &str = "시스템 프롬프트|시스템 메시지|시스템 메세지|시스템 지시|시스템 지침|시스템 명령|시스템 설정|시스템 규칙|초기 설정 문구|초기 설정 내용|초기 설정을 그대로|초기 설정 원문|초기 지시|\
    초기 프롬프트|초기 명령|초기 지침|처음 받은 지시|처음 받은 명령|처음 받은 프롬프트|처음 받은 지침|처음 받은 설정|처음 받은 규칙|처음에 받은|처음 들은 지시|맨 처음 지시|맨 처음 받은|\
    숨겨진 지시|숨겨진 프롬프트|숨겨진 규칙|숨은 지시|숨은 프롬프트|개발자 메시지|개발자 메세지|개발자 지시|개발자가 준 지|개발자가 준 프|개발자가 준 규|개발자가 넣은 지|개발자가 넣은 프|\
    개발자가 설정한 지|개발자가 설정한 프|원래 지시|원래 프롬프트|사전 지시|사전 프롬프트|내부 지침|내부 지시|내부 규칙|내부 프롬프트|운영 지침|비밀 지시|설정 문구|프롬프트 원문|\
    프롬프트 전문|받은 지시|받은 명령|받은 프롬프트|받은 지침|받은 규칙|너의 지시|너의 규칙|너의 지침|너의 프롬프트|너의 설정|네 지시|네 규칙|네 지침|네 프롬프트|네 설정|니 프롬프트|\
    니 지시|당신의 지시|당신의 프롬프트|당신의 규칙|당신의 지침|당신의 설정|네가 받은|니가 받은|당신이 받은|설정된 지시|설정된 프롬프트|주어진 지시|주어진 프롬프트|위에 있는 지시|대화 이전|\
    이 대화 위|system prompt|system message|너의 instruct|네 instruct|당신의 instruct|너의 prompt|네 prompt";
/// 지금부터/이제부터: from now on.
const NOW_KO: &str = "지금부터|이제부터|이제|앞으로|오늘부터|지금 이 순간부터|from now on";
/// 너는/넌/당신은: you (the model).
const YOU_KO: &str = "너는|넌$|당신은|너의 역할|니가|네 역할|너 이제|you$|너$|너 지금";
/// Roles with power or without rules: admin, root, developer, unrestricted, hacker, DAN.
const ROLE_KO: &str = "관리자|어드민|admin|루트|root|개발자|시스템|제한 없는|제한없는|제약 없는|제약없는|무제한|검열 없는|검열없는|필터 없는|필터없는|규칙 없는|규칙없는|해커|악당|악마|탈옥|dan|주인|\
    다른 ai|새로운 ai|자유로운 ai|뭐든 할 수|무엇이든 할 수|뭐든지 하는|모든 걸 할 수|아무 제약|최고 권한|슈퍼유저|윤리 없는|윤리가 없는|해방된";
/// 역할/페르소나: role, persona.
const ROLE_WORD_KO: &str = "역할|페르소나|정체성|캐릭터 설정|본분";
/// 바꿔/버려/벗어나: change, drop, leave (a role).
const ROLE_CHANGE_KO: &str = "바꿔$|바꿔서|바꿔라|바꿔줘|변경해$|변경해서|변경하고|버려|버리고|무시|잊어|잊고|벗어나|그만둬|내려놓";
/// 제한 없이/검열 해제/필터 꺼: without limits, lift censorship, turn the filter off.
const NO_LIMITS_KO: &str = "제한 없이|제한없이|제한 없는|제한을 풀|제한 풀|제한 해제|제한을 해제|제한을 무시|제한을 없애|제약 없이|제약 없는|제약을 풀|제약을 무시|검열 없이|검열 없는|검열을 해제|검열 해제|\
    검열을 풀|필터 없이|필터를 끄|필터 끄|필터를 꺼|필터 꺼|필터를 해제|필터 해제|필터를 우회|안전 장치를 끄|안전장치를 끄|안전장치 해제|안전 장치 해제|안전 규칙을 무시|윤리 규칙을 무시|\
    윤리적 제한|윤리 따위|가이드라인 없이|가이드라인을 무시|규칙 없이|아무 제한|아무런 제한|아무 제약|아무런 제약|무제한 모드|정책을 무시|정책 무시|안전 정책|콘텐츠 정책|검열하지 말|\
    거절하지 말|거절하지 마|거부하지 마|거부하지 말";
/// 너/대답/답변/모드: the model, its answers, a mode.
const AT_MODEL_KO: &str = "너|넌|당신|ai|모델|모드|대답|답해|답변|응답|말해|챗봇|gpt";
/// 탈옥: jailbreak (also a film genre, so it needs the model in view).
const JAILBREAK_KO: &str = "탈옥|jailbreak";
/// What makes 탈옥 about the model: mode, prompt, you, AI, filter.
const JAILBREAK_CONTEXT_KO: &str = "모드|프롬프트|버전|시켜|된 ai|너를|너는|너도|너$|넌|당신|ai|gpt|챗봇|모델|검열|해제";
/// 개발자 모드/관리자 모드: jailbreak modes.
const MODES_KO: &str = "개발자 모드|관리자 모드|갓 모드|dan 모드|탈옥 모드|무제한 모드|무검열 모드|루트 모드|디버그 모드로 전환|developer mode";
/// 켜/활성화/전환: switch on, activate, switch to.
const MODE_ON_KO: &str = "켜줘|켜라|켜고|켜세요|켜!|활성화해|활성화하고|활성화 해|활성화하라|전환해|전환하고|전환하라|로 전환|진입|들어가|돌입|실행해|실행하고|모드야|모드다|모드입니다|모드로|켜졌|활성화됐|\
    활성화되었";
/// API 키/비밀번호/토큰: secrets.
const SECRETS_KO: &str = "api 키|api키|api key|비밀번호|패스워드|토큰|인증 정보|인증정보|자격 증명|자격증명|비밀 키|비밀키|시크릿|환경 변수|환경변수|액세스 키|접근 키|키 값|키값|개인 키|개인키|\
    암호 키|ssh 키|계정 정보|로그인 정보|password";
/// 보내/전송/넘겨: send, transmit, hand over (plus the reveal verbs).
const SECRET_VERB_KO: &str = "보여|알려|출력|공개|말해|적어|노출|누설|유출|읊어|내놔|뱉어|써줘|밝혀|뭐야|뭔지|무엇|보내|전송|넘겨|메일로|공유|나열";
/// 네가/저장된/관리자/서버: whose secrets (the system's, not the user's own).
const SECRET_OWNER_KO: &str = "네가|니가|너의|네$|당신의|당신이|저장된|저장되어|시스템|관리자|서버|내부|모든|가지고 있는|갖고 있는|알고 있는|설정된|등록된|사용 중인|쓰고 있는|사용하는|다른 사용자|개발자|운영자|db|\
    데이터베이스|운영 환경|회사";
/// 유출해/빼돌려/훔쳐: leak, smuggle out, steal.
const LEAK_KO: &str = "유출해|유출하|빼돌|훔쳐|털어|탈취|몰래 보내|몰래 전송";
/// 파일/폴더/DB: files, folders, databases.
const FILES_KO: &str = "파일|폴더|디렉터리|디렉토리|데이터베이스|db|로그|백업|저장소|서버|테이블";
/// 삭제해/지워/날려: delete, wipe (imperative).
const DESTROY_KO: &str = "삭제해|삭제하고|삭제하라|지워|지우고|날려|포맷해|초기화해|drop|rm$|전부 삭제|모두 삭제|싹 다";
/// 하위 폴더의 node_modules/빌드 폴더/캐시/임시 파일/오래된: the everyday clean-ups a user asks the
/// chat for ("하위 폴더의 node_modules 전부 지워줘"), which it answers with a command card to
/// confirm, as it does in English.
const CLEANUP_KO: &str = "node_modules|하위 폴더|하위폴더|빌드 폴더|빌드폴더|캐시|임시 파일|임시파일|오래된";
/// 실행해/호출해: run, call.
const RUN_KO: &str = "실행해|실행하고|실행하라|실행시켜|호출해|호출하고|돌려|run";
/// 명령어/셸/도구: commands, shell, tools.
const COMMANDS_KO: &str = "명령어|셸|쉘|터미널|shell|bash|delete file|send email|http post|etc passwd|도구를|툴을";
/// 이 글을 읽는 AI/AI라면: pasted text that addresses the model reading it.
const ADDRESS_AI_KO: &str = "읽는 ai|읽고 있는 ai|처리하는 ai|요약하는 ai|분석하는 ai|보고 있는 ai|ai라면|ai 라면|ai 모델이라면|ai에게 알림|ai에게 전달|ai에게 지시|ai 비서에게|\
    ai 어시스턴트에게|인공지능이라면|인공지능에게|언어 모델이라면|챗봇이라면|llm이라면|ai는 다음|시스템 메모|시스템 공지|시스템 노트|숨겨진 지시|봇에게 알림|모델에게 지시";
/// 반드시/대신/포함/보내: orders such text gives.
const HIDDEN_ORDER_KO: &str = "반드시|무시|대신|추가|포함|붙여|보내|전송|실행|출력|삭제|지워|해야|하라|할 것|하세요|알려|공개|저장|넣어|호출|전달해|전달하";
/// 기억해/저장해 + 앞으로 모든 답변: persisting an order.
const MEMORY_KO: &str = "장기 기억|메모리에 저장|앞으로 모든 답변|모든 답변 끝에|모든 응답에|앞으로 모든 응답|매 답변마다|모든 답변에";
/// 디코딩해서/해독해서 + 실행해/따라: decode, then do what it says.
const DECODE_KO: &str = "디코딩|해독|복호화|거꾸로 읽|뒤집어 읽|base64|16진수|이진수";
/// 시키는 대로/따라/실행: as it says, follow, run.
const FOLLOW_KO: &str = "시키는 대로|적힌 대로|쓰인 대로|나온 대로|따라|실행|수행|지시대로";

/// Every rule, English then Korean.
pub const RULES: &[Rule] = &[
    Rule { kind: OverrideInstructions, window: 4, concepts: &[IGNORE, PRIOR, INSTRUCTIONS], unless: "" },
    Rule { kind: OverrideInstructions, window: 4, concepts: &[IGNORE, EVERYTHING, BEFORE], unless: "" },
    Rule { kind: OverrideInstructions, window: 0, concepts: &[NEW_ORDERS], unless: "" },
    Rule { kind: OverrideInstructions, window: 6, concepts: &[NO_LONGER_COUNT, YOUR_ORDERS], unless: "" },
    Rule { kind: RevealPrompt, window: 6, concepts: &[REVEAL, SYSTEM_PROMPT], unless: "" },
    Rule { kind: RoleHijack, window: 6, concepts: &[YOU_NOW, ROLE_TARGET], unless: "" },
    Rule { kind: RoleHijack, window: 0, concepts: &[NO_LONGER], unless: "" },
    Rule { kind: RoleHijack, window: 5, concepts: &[YOU_ARE, ROLE_TARGET, NOW], unless: "" },
    Rule { kind: Jailbreak, window: 5, concepts: &[MODES, MODE_ON], unless: DEVICES },
    Rule { kind: Jailbreak, window: 6, concepts: &[NO_LIMITS, LIMITS, AT_MODEL], unless: "" },
    Rule { kind: Jailbreak, window: 5, concepts: &[GRANT, GRANTED], unless: "" },
    Rule { kind: Jailbreak, window: 5, concepts: &["dan$", "you|mode|stands|anything|jailbr|restrict|polic"], unless: "" },
    Rule { kind: SecretRequest, window: 4, concepts: &[LEAK, SECRETS], unless: "" },
    Rule { kind: SecretRequest, window: 6, concepts: &[REVEAL, SECRETS, SECRET_OWNER], unless: "" },
    Rule { kind: ToolMisuse, window: 3, concepts: &[CALL, TOOLS], unless: "" },
    Rule { kind: ToolMisuse, window: 6, concepts: &[CALL, DANGEROUS_COMMANDS], unless: "" },
    Rule { kind: ToolMisuse, window: 6, concepts: &["read|cat$|print|open|show|dump|send|paste|보여|출력|읽어|열어", DANGEROUS_COMMANDS], unless: "" },
    Rule { kind: ToolMisuse, window: 12, concepts: &[SEND, PRIVATE_DATA, OUTSIDE], unless: "" },
    Rule { kind: HiddenInstruction, window: 14, concepts: &[ADDRESS_AI, HIDDEN_ORDER], unless: "" },
    Rule { kind: HiddenInstruction, window: 12, concepts: &[MEMORY, MEMORY_ORDER], unless: "" },
    Rule { kind: Obfuscated, window: 16, concepts: &[DECODE, ENCODINGS, FOLLOW], unless: "" },
    Rule { kind: OverrideInstructions, window: 3, concepts: &[IGNORE_KO, INSTRUCTIONS_KO], unless: "" },
    Rule { kind: OverrideInstructions, window: 3, concepts: &[NO_LONGER_COUNT_KO, INSTRUCTIONS_KO], unless: "" },
    Rule { kind: OverrideInstructions, window: 0, concepts: &[ONLY_ME_KO], unless: "" },
    Rule { kind: RevealPrompt, window: 6, concepts: &[REVEAL_KO, SYSTEM_PROMPT_KO], unless: "" },
    Rule { kind: RoleHijack, window: 5, concepts: &[NOW_KO, YOU_KO, ROLE_KO], unless: "" },
    Rule { kind: RoleHijack, window: 3, concepts: &[ROLE_WORD_KO, ROLE_CHANGE_KO], unless: "" },
    Rule { kind: Jailbreak, window: 5, concepts: &[NO_LIMITS_KO, AT_MODEL_KO], unless: "" },
    Rule { kind: Jailbreak, window: 3, concepts: &[JAILBREAK_KO, JAILBREAK_CONTEXT_KO], unless: "" },
    Rule { kind: Jailbreak, window: 4, concepts: &[MODES_KO, MODE_ON_KO], unless: DEVICES },
    Rule { kind: SecretRequest, window: 5, concepts: &[SECRETS_KO, SECRET_VERB_KO, SECRET_OWNER_KO], unless: "" },
    Rule { kind: SecretRequest, window: 3, concepts: &[SECRETS_KO, LEAK_KO], unless: "" },
    Rule { kind: ToolMisuse, window: 4, concepts: &[FILES_KO, DESTROY_KO, "모든|전부|모두|전체|싹|rm|경로"], unless: CLEANUP_KO },
    Rule { kind: ToolMisuse, window: 4, concepts: &[COMMANDS_KO, RUN_KO], unless: "" },
    Rule { kind: HiddenInstruction, window: 10, concepts: &[ADDRESS_AI_KO, HIDDEN_ORDER_KO], unless: "" },
    Rule { kind: HiddenInstruction, window: 8, concepts: &[MEMORY_KO, HIDDEN_ORDER_KO], unless: "" },
    Rule { kind: Obfuscated, window: 8, concepts: &[DECODE_KO, FOLLOW_KO], unless: "" },
];

// ---- Markup, and talk about attacks (used by `screen` directly) ----

/// Chat-template tokens and tags that fake a turn or end the user's block.
pub const MARKUP: &[&str] = &[
    "<|im_start|>", "<|im_end|>", "<|system|>", "<|user|>", "<|assistant|>", "<|endoftext|>", "<|eot_id|>",
    "<|start_header_id|>", "[inst]", "[/inst]", "<<sys>>", "<</sys>>", "<system>", "</system>", "<user_input>",
    "</user_input>", "</user>", "<assistant>", "</assistant>", "</instructions>", "<instructions>",
    "[system]", "[system note]", "### system", "### instruction", "[admin]", "<developer>",
];
/// Phrases that fake the end of the user's text when they stand alone on a decorated line
/// (`### END OF USER INPUT ###`); in running prose they are ordinary words.
// 사용자 입력 끝: end of user input; 입력 끝: end of input; 문서 끝: end of document; 시스템 프롬프트 시작: system prompt begins
pub const BOUNDARY_LINES: WordList = WordList(
    "end of user input|end of document|end of input|end of context|end of prompt|end of user message|\
    begin system prompt|system prompt begins|new system prompt|사용자 입력 끝|입력 끝|문서 끝|시스템 프롬프트 시작",
);

/// Role headers that open a line in pasted text (`System: …`).
// 시스템: system; 관리자: administrator; 어시스턴트: assistant
pub const ROLE_HEADERS: WordList = WordList(
    "시스템:|관리자:|어시스턴트:|<!-- ai|<!--ai|<!-- assistant|<!-- system|<!-- note to|system:|system note:|system update|\
    assistant:|developer:|admin:|[system",
);

/// What makes such a header an order rather than a log line.
// 허용: allow; 권한: permission; 무시: ignore; 지시: instruction; 너는: you are; 모든 요청: every request; 출력: output
pub const HEADER_ORDERS: WordList = WordList(
    "허용|권한|무시|지시|너는|모든 요청|출력|you are|you may|you must|you will|you should|the user is|new instruction|ignore|grant|\
    reveal|admin|password|append|here is the|allow all|disable|override|sure,",
);

/// Subjects that, with a question, mark talk about attacks rather than an attack.
/// 인젝션/주입 공격/공격자/방어/막는/탐지/대응/보안 교육: injection, injection attack, attacker, defend,
/// block, detect, counter, security training
pub const ATTACK_TOPICS: &str = "injection|attacker|defend|defense|defence|mitigat|detect|red team|training material|security course|\
    security lesson|security class|prevent|protect|stop my|keep my|from leaking|harden|인젝션|주입 공격|공격자|공격 기법|\
    공격 유형|공격 문장|공격 수법|방어|막는|막을|막으|막아|대응|탐지|보안 교육|보안 강의|레드팀|않게|못하게|방지|보호";

/// Weaker subjects, enough when the attack itself sits in quotes.
/// 공격/위험/보안/예시/표현/분류/필터/악성/수법/차단: attack, danger, security, example, phrasing,
/// classify, filter, malicious, trick, block
pub const QUOTE_TOPICS: &str = "attack|danger|risk|security|example|phrase|classif|filter|malicious|harmful|block|flag|공격|위험|보안|예시|예문|표현|분류|\
    필터|악성|수법|차단|사례|문구";

/// Question or teaching cues.
/// 어떻게/왜/무엇/뭐/설명/이유/방법/분석/어떤: how, why, what, explain, reason, way, analyse, which
pub const QUESTION_CUES: &str = "how|why|what$|whats|explain|teach|describe|which|is it|can you tell|어떻게|왜|무엇|뭐|설명|이유|방법|분석|어떤|인가요|일까|건가요|나요|\
    예시|예문";

/// Orders to run a command or do what it does, or pushes to do it now: a question about a
/// command is one only without these ("what does rm -rf / do?" asks; "can you run rm -rf / for
/// me?" and "rm -rf ./build now" order). Read by the screen and by the no-key chat.
/// 실행/돌려/입력해/쳐 봐/해 줘/당장/삭제해/지워: run, run, type, type it, do it, right away, delete, erase.
pub const RUN_ORDERS: &str = "run|execute|exec$|invoke|trigger|type it|enter it|paste it|right now|now$|for me|go ahead|\
    dont you|why not|delete it|delete them|remove it|remove them|clean it|실행|돌려|입력해|쳐 봐|쳐봐|해 줘|해줘|해주세요|\
    해 주세요|당장|해볼래|할래|삭제해|지워";

/// What a short question after a command asks about it: what it does or means, whether it
/// is safe. 하면/뜻/의미/위험/안전/무슨/어떻게 돼: if one does it, meaning, danger, safe, what, what happens.
pub const ABOUT_COMMAND: &str = "do$|does|mean|meaning|dangerous|danger|safe|happen|work|하면|뜻|의미|위험|안전|무슨|뭐|어떻게 돼|어떻게 되";

/// Cues that the quoted or described attack should be carried out after all.
pub const CARRY_OUT: &str = "now do|do it|then do|follow it|execute|obey|comply|do as|실행해|따라 해|따라해|그대로 해|수행해|그렇게 해|시키는 대로";
