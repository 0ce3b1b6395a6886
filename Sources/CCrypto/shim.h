#pragma once
#include <openssl/crypto.h>
#include <openssl/sha.h>
