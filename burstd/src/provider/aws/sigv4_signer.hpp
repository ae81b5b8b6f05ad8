#pragma once
// AWS Signature Version 4: signs an HttpRequest either with an Authorization
// header or as a presigned (query-string) request.  Conforms to the official
// aws-c-auth SigV4 test suite (tests/unit/provider/aws/sigv4_suite_test.cpp).

#include "model/clock.hpp"
#include "provider/aws/aws_credentials.hpp"
#include "provider/http/http_message.hpp"

#include <string>

namespace burst {

struct SigV4Options {
    std::string region;
    std::string service;
    // Remove dot segments and empty segments from the path before encoding it
    // (every service except S3).  The wire path is always percent-encoded once
    // more, which is the "double encoding" non-S3 services expect.
    bool normalize_path = true;
    // Add and sign an x-amz-content-sha256 header (S3 and a few others).
    bool sign_body = false;
    // Add the session token to the request after signing instead of signing it
    // (services that validate the token separately, e.g. IoT).
    bool omit_session_token = false;
};

// What was signed, for tests and for debugging a signature mismatch.  Holds no
// secret: the canonical request and string to sign are safe to log.
struct SigV4Trace {
    std::string canonical_request;
    std::string string_to_sign;
    std::string signature;
};

class SigV4Signer {
public:
    explicit SigV4Signer(SigV4Options options);

    // Adds X-Amz-Date, X-Amz-Security-Token, x-amz-content-sha256 (as
    // configured) and Authorization headers, replacing earlier ones so a
    // retried request can be signed again.  The request needs a Host header.
    SigV4Trace sign(HttpRequest& request, const AwsCredentials& credentials, Time now) const;

    // Appends the X-Amz-* authentication parameters to the request's query.
    SigV4Trace presign(HttpRequest& request, const AwsCredentials& credentials, Time now,
                       Seconds expires) const;

    std::string canonical_path(const std::string& wire_path) const;
    static std::string canonical_query(const std::string& wire_query);

private:
    SigV4Options options_;
};

// "20150830T123600Z" for a Unix time.
std::string amz_date(Time t);

} // namespace burst
